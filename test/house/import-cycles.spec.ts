// The node's folders form layers: no folder of src/ reaches itself again through its imports. Read
// from the compiled modules beside this spec, so only imports that load code count (a type-only
// import vanishes in compilation and cannot make a loading cycle); lazy `import()`s are left out too,
// as they are how the CLI defers loading on purpose.
import { expect } from 'chai';
import { compiledModules, roomOf } from '../helpers/compiled-src.js';

/** Which rooms each room's modules import, each edge with one import that makes it. */
function roomGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const module of compiledModules()) {
    // What src/ imports from outside it (shared/contract/) loads nothing of src/ (test/house/rooms.spec.ts).
    for (const target of module.imports.filter((path) => !path.startsWith('../'))) {
      const [from, to] = [roomOf(module.path), roomOf(target)];
      if (from === to) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${module.path} -> ${target}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** One path of imports that leads from `start` back to `start`, or undefined. */
function cycleThrough(graph: Map<string, Map<string, string>>, start: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (room: string, path: string[]): string[] | undefined => {
    for (const [next, why] of graph.get(room) ?? []) {
      if (next === start) return [...path, why];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...path, why]);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(start, []);
}

describe('import layering of src/', () => {
  it('has no folder whose imports lead back to itself', () => {
    const graph = roomGraph();
    const cycles = [...graph.keys()].flatMap((room) => {
      const cycle = cycleThrough(graph, room);
      return cycle === undefined ? [] : [`${room}: ${cycle.join(', ')}`];
    });
    expect(cycles).to.deep.equal([]);
  });
});
