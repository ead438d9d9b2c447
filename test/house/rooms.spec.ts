// The node, its API-review tool and its playground are rooms of their own: src/ (the node), tools/contract/ (the
// contract tools) and playground/ (a browser app the node serves) load nothing from one another, and each reads
// the contract through the one small shared module, shared/contract/, which loads nothing of theirs. Read from the
// compiled modules, so only imports that load code count (the CLI hands `evm-node contract` to the tools' entry by
// a path, on purpose: src/cli.ts).
import { expect } from 'chai';
import { join } from 'node:path';
import { COMPILED, compiledModules } from '../helpers/compiled-src.js';

const ROOMS = ['src', 'tools', 'playground', 'shared'] as const;

/** Every static import from `room` into another of the rooms, as `module -> target`. */
function importsAcross(room: (typeof ROOMS)[number]): string[] {
  return compiledModules(join(COMPILED, room), COMPILED).flatMap((module) =>
    module.imports.filter((target) => ROOMS.some((other) => other !== room && target.startsWith(`${other}/`))).map((target) => `${module.path} -> ${target}`),
  );
}

const into = (imports: string[], room: string) => imports.filter((edge) => edge.split(' -> ')[1]!.startsWith(`${room}/`));

describe('rooms of the project', () => {
  it('the node (src/) loads nothing of the contract tools or the playground', () => {
    const imports = importsAcross('src');
    expect([...into(imports, 'tools'), ...into(imports, 'playground')]).to.deep.equal([]);
    expect(into(imports, 'shared').length).to.be.greaterThan(0);
  });

  it('the contract tools load nothing of the node or the playground, and read the contract through shared/contract/', () => {
    const imports = importsAcross('tools');
    expect([...into(imports, 'src'), ...into(imports, 'playground')]).to.deep.equal([]);
    expect(into(imports, 'shared').length).to.be.greaterThan(0);
  });

  it('the playground loads nothing of the node or the contract tools, and reads the contract through shared/contract/', () => {
    const imports = importsAcross('playground');
    expect([...into(imports, 'src'), ...into(imports, 'tools')]).to.deep.equal([]);
    expect(into(imports, 'shared').length).to.be.greaterThan(0);
  });

  it('the shared contract module loads nothing of the rooms that use it', () => {
    expect(importsAcross('shared')).to.deep.equal([]);
  });
});
