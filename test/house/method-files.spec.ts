// A method is found from its wire name: every method of the contract has its file,
// src/methods/<namespace>/<method>.ts (`eth_getProof` → eth/getProof.ts, `rpc.discover` → rpc/discover.ts),
// or, for a name that does another method's work, an entry in the alias table (src/methods/aliases.ts)
// naming the method whose file does it. A namespace's folder holds nothing else; what several methods
// share sits in src/methods/ itself, in a module named for what it does.
import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALIASES } from '../../src/methods/aliases.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const METHODS = join(ROOT, 'src', 'methods');
const contract: string[] = (JSON.parse(readFileSync(join(ROOT, 'openrpc.json'), 'utf8')) as { methods: { name: string }[] }).methods.map((m) => m.name);
const aliases: Record<string, { of: string }> = ALIASES;

/** `eth_getProof` → eth/getProof.ts; `rpc.discover` → rpc/discover.ts. */
function fileOf(method: string): string {
  const at = method.includes('_') ? method.indexOf('_') : method.indexOf('.');
  return `${method.slice(0, at)}/${method.slice(at + 1)}.ts`;
}

/** Every file in a namespace's folder under src/methods/. */
const namespaceFiles = (): string[] =>
  readdirSync(METHODS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) => readdirSync(join(METHODS, dir.name)).map((file) => `${dir.name}/${file}`));

describe('every method of the contract has its file', () => {
  for (const method of contract) {
    const alias = aliases[method];
    if (alias === undefined) {
      it(`${method}: src/methods/${fileOf(method)}, exporting ${method.replace('.', '_')}`, () => {
        const path = join(METHODS, fileOf(method));
        expect(existsSync(path), `src/methods/${fileOf(method)} is missing`).to.equal(true);
        expect(readFileSync(path, 'utf8')).to.include(`export function ${method.replace('.', '_')}(`);
      });
    } else {
      it(`${method}: an alias of ${alias.of}, whose file does its work`, () => {
        expect(contract).to.include(alias.of);
        expect(aliases[alias.of], `${alias.of} is an alias itself`).to.equal(undefined);
        expect(existsSync(join(METHODS, fileOf(alias.of))), `src/methods/${fileOf(alias.of)} is missing`).to.equal(true);
        expect(existsSync(join(METHODS, fileOf(method))), `an alias has no file of its own: src/methods/${fileOf(method)}`).to.equal(false);
      });
    }
  }

  it('has no alias the contract lacks', () => {
    expect(Object.keys(aliases).filter((name) => !contract.includes(name))).to.deep.equal([]);
  });

  it("has nothing else in a namespace's folder: each file is a method of the contract", () => {
    const expected = new Set(contract.filter((method) => aliases[method] === undefined).map(fileOf));
    expect(namespaceFiles().filter((file) => !expected.has(file))).to.deep.equal([]);
  });
});
