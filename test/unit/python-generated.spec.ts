// clients/python/evm_node_client/{types,methods}.py must be what the generator makes of the current openrpc.json,
// and the generator must refuse a contract it cannot turn into Python.
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PY_HEADER } from '../../scripts/generator/output.js';
import { PYTHON_GENERATED_DIR, PYTHON_GENERATED_FILES, renderPythonClientFiles } from '../../scripts/generator/python-client.js';
import { snakeCase, unionMembers } from '../../scripts/generator/python.js';
import { readDocument } from '../../shared/contract/document.js';
import { projectRoot } from '../../shared/contract/root.js';

type Json = { [key: string]: unknown };

const root = projectRoot();
const doc = readDocument(path.join(root, 'openrpc.json')) as Json;
const dir = path.join(root, PYTHON_GENERATED_DIR);
const methods = doc.methods as Json[];

describe('clients/python/evm_node_client/ (Python SDK generator output)', function () {
  it('is up to date with openrpc.json (run `npm run generate` if this fails)', function () {
    for (const [file, fresh] of renderPythonClientFiles(doc)) {
      let committed: string;
      try {
        committed = readFileSync(path.join(dir, file), 'utf8');
      } catch {
        throw new Error(`${PYTHON_GENERATED_DIR}/${file} is missing; run \`npm run generate\``);
      }
      if (committed !== fresh) throw new Error(`${PYTHON_GENERATED_DIR}/${file} is stale relative to openrpc.json; run \`npm run generate\``);
    }
  });

  it('contains no stale generator output', function () {
    const extra = readdirSync(dir).filter((f) => !(PYTHON_GENERATED_FILES as readonly string[]).includes(f) && f.endsWith('.py') && readFileSync(path.join(dir, f), 'utf8').startsWith(PY_HEADER));
    expect(extra).to.deep.equal([]);
  });

  it('names each method in snake case after its wire name', function () {
    expect(['eth_getBlockByNumber', 'rpc.discover', 'eth_signTypedData_v4', 'testing_buildBlockV1', 'txpool_contentFrom'].map(snakeCase)).to.deep.equal([
      'eth_get_block_by_number',
      'rpc_discover',
      'eth_sign_typed_data_v4',
      'testing_build_block_v1',
      'txpool_content_from',
    ]);
  });

  it('reads the members of a union outside brackets and strings', function () {
    expect(unionMembers('A | list[B | C] | Literal["x | y", "z"] | dict[str, D | None] | None')).to.deep.equal(['A', 'list[B | C]', 'Literal["x | y", "z"]', 'dict[str, D | None]', 'None']);
  });

  it('declares one method per contract method, sending its wire name', function () {
    const module = renderPythonClientFiles(doc).get('methods.py')!;
    for (const m of methods) {
      const name = m.name as string;
      expect(module, name).to.match(new RegExp(`\\n    def ${snakeCase(name)}\\(`));
      expect(module, name).to.include(`self._call(${JSON.stringify(name)}, [`);
    }
  });

  it('gives a method whose optional params follow the required ones defaults of None', function () {
    const module = renderPythonClientFiles(doc).get('methods.py')!;
    expect(module).to.include('        block: t.BlockNumberOrTagOrHash | None = None,\n        state_overrides: t.StateOverride | None = None,');
    expect(module).to.include('self._call("eth_call", [transaction, block, state_overrides, block_overrides], 1)');
  });

  it('refuses a method whose Python name is a member of Client', function () {
    const bad = structuredClone(doc) as { methods: Json[] };
    bad.methods.push({ name: 'batch', params: [], result: { name: 'r', schema: { type: 'string' } } });
    expect(() => renderPythonClientFiles(bad)).to.throw(/Python name batch collides with a Client member/);
  });

  it('refuses a schema named like a Python keyword', function () {
    const bad = structuredClone(doc) as { components: { schemas: Json } };
    bad.components.schemas.None = { type: 'string' };
    expect(() => renderPythonClientFiles(bad)).to.throw(/"None" is not usable as a Python type name/);
  });
});
