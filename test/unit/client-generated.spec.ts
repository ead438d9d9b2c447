// clients/typescript/src/generated/ must be what the generator makes of the current openrpc.json.
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { CLIENT_DIR, CLIENT_GENERATED_DIR, CLIENT_GENERATED_FILES, CLIENT_RESERVED, functionName, renderClientFiles } from '../../scripts/generator/client.js';
import { pascalCase } from '../../tools/contract/names.js';
import { HEADER } from '../../scripts/generator/output.js';
import { requiresHexPrefix } from '../../scripts/generator/typescript.js';
import { VIEM_ACTION_METHODS } from '../../scripts/generator/viem-methods.js';
import { readDocument } from '../../shared/contract/document.js';
import { projectRoot } from '../../shared/contract/root.js';

const root = projectRoot();
const doc = readDocument(path.join(root, 'openrpc.json')) as unknown as { methods: { name: string }[] };
const dir = path.join(root, CLIENT_GENERATED_DIR);

describe('clients/typescript/src/generated/ (client SDK generator output)', function () {
  it('is up to date with openrpc.json (run `npm run generate` if this fails)', function () {
    for (const [file, fresh] of renderClientFiles(doc)) {
      let committed: string;
      try {
        committed = readFileSync(path.join(dir, file), 'utf8');
      } catch {
        throw new Error(`${CLIENT_GENERATED_DIR}/${file} is missing; run \`npm run generate\``);
      }
      if (committed !== fresh) throw new Error(`${CLIENT_GENERATED_DIR}/${file} is stale relative to openrpc.json; run \`npm run generate\``);
    }
  });

  it('contains no stale generator output', function () {
    const extra = readdirSync(dir).filter(
      (f) => !(CLIENT_GENERATED_FILES as readonly string[]).includes(f) && readFileSync(path.join(dir, f), 'utf8').startsWith(HEADER),
    );
    expect(extra).to.deep.equal([]);
  });

  it("shares its types with generated/types.ts, but for 0x-prefixed strings typed `0x${string}`", function () {
    const sdk = readFileSync(path.join(dir, 'types.ts'), 'utf8');
    expect(sdk).to.include('export type Address = `0x${string}`;');
    expect(sdk.replaceAll('`0x${string}`', 'string')).to.equal(readFileSync(path.join(root, 'generated', 'types.ts'), 'utf8'));
  });

  it('declares one function and one client member per method', function () {
    const client = renderClientFiles(doc).get('client.ts')!;
    for (const m of doc.methods) {
      const fn = functionName(pascalCase(m.name));
      expect(client, m.name).to.include(`export function ${fn}(transport: Transport, ...params: ${pascalCase(m.name)}Params)`);
      expect(client, m.name).to.match(new RegExp(`\\n  "?${m.name.replace('.', '\\.')}"?\\(\\.\\.\\.params: ${pascalCase(m.name)}Params\\)`));
    }
  });

  it('gives the viem extension an action for exactly the methods no viem action calls', function () {
    const viem = renderClientFiles(doc).get('viem.ts')!;
    for (const m of doc.methods) {
      const action = `\n  ${functionName(pascalCase(m.name))}(...params: ${pascalCase(m.name)}Params)`;
      if (VIEM_ACTION_METHODS.includes(m.name)) expect(viem, m.name).to.not.include(action);
      else expect(viem, m.name).to.include(action);
    }
  });

  it('rejects a method whose viem action would shadow a member of the extension', function () {
    const bad = structuredClone(doc) as unknown as { methods: unknown[] };
    bad.methods.push({ name: 'evmNode', params: [], result: { name: 'r', schema: { type: 'string' } } });
    expect(() => renderClientFiles(bad)).to.throw(/collides with the extension's own member/);
  });

  it('types as hex only the patterns that demand a 0x prefix', function () {
    expect(requiresHexPrefix('^0x[0-9a-f]*$')).to.equal(true);
    expect(requiresHexPrefix('^0x(0|[1-9a-f][0-9a-f]*)$')).to.equal(true);
    expect(requiresHexPrefix('^0x[|]{2}$')).to.equal(true);
    expect(requiresHexPrefix('^0x[0-9a-f]+$|^latest$')).to.equal(false);
    expect(requiresHexPrefix('^[0-9]+$')).to.equal(false);
    expect(requiresHexPrefix('0x[0-9a-f]+')).to.equal(false);
  });

  it('reserves every name the package exports besides the contract-derived ones', function () {
    const entries = ['index.ts', 'viem.ts'].map((f) => path.join(root, CLIENT_DIR, 'src', f));
    const program = ts.createProgram(entries, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true });
    const checker = program.getTypeChecker();
    const contractTypes = new Set<string>();
    const typesFile = program.getSourceFile(path.join(dir, 'types.ts'))!;
    for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(typesFile)!)) contractTypes.add(symbol.name);
    const functions = new Set(doc.methods.map((m) => functionName(pascalCase(m.name))));
    const unreserved = entries.flatMap((file) =>
      checker
        .getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!)
        .map((symbol) => symbol.name)
        .filter((name) => !contractTypes.has(name) && !functions.has(name) && !CLIENT_RESERVED.has(name)),
    );
    expect(unreserved, 'add these to CLIENT_RESERVED in scripts/generator/client.ts').to.deep.equal([]);
  });

  it('rejects a contract name that would shadow an SDK export', function () {
    const bad = structuredClone(doc) as unknown as { components: { schemas: Record<string, unknown> } };
    bad.components.schemas.JsonRpcError = { type: 'string' };
    expect(() => renderClientFiles(bad)).to.throw(/collides with a name exported by the client SDK/);
  });
});
