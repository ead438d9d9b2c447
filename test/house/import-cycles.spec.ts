// The node's folders form layers: no folder of src/ reaches itself again through its imports. Read
// from the compiled modules beside this spec, so only imports that load code count (a type-only
// import vanishes in compilation and cannot make a loading cycle); lazy `import()`s are left out too,
// as they are how the CLI defers loading on purpose.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

/** A module's room: its top folder under src/, or the module itself when it sits at the top. */
function roomOf(module: string): string {
  const path = relative(SRC, module);
  return path.includes('/') ? path.slice(0, path.indexOf('/')) : path;
}

/** Which rooms each room's modules import (static imports and re-exports of relative paths). */
function roomGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const module of modules(SRC)) {
    const text = readFileSync(module, 'utf8');
    for (const [, specifier] of text.matchAll(/^(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      const target = resolve(dirname(module), specifier!);
      const [from, to] = [roomOf(module), roomOf(target)];
      if (from === to) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${relative(SRC, module)} -> ${relative(SRC, target)}`);
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
