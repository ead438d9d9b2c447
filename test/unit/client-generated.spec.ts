// clients/typescript/src/generated/ must be what the generator makes of the current openrpc.json.
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_GENERATED_DIR, CLIENT_GENERATED_FILES, functionName, renderClientFiles } from '../../scripts/generator/client.js';
import { pascalCase } from '../../scripts/generator/model.js';
import { HEADER } from '../../scripts/generator/output.js';
import { readDocument } from '../../src/contract/document.js';
import { projectRoot } from '../../src/contract/root.js';

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

  it('shares its types with generated/types.ts', function () {
    expect(readFileSync(path.join(dir, 'types.ts'), 'utf8')).to.equal(readFileSync(path.join(root, 'generated', 'types.ts'), 'utf8'));
  });

  it('declares one function and one client member per method', function () {
    const client = renderClientFiles(doc).get('client.ts')!;
    for (const m of doc.methods) {
      const fn = functionName(pascalCase(m.name));
      expect(client, m.name).to.include(`export function ${fn}(transport: Transport, ...params: ${pascalCase(m.name)}Params)`);
      expect(client, m.name).to.match(new RegExp(`\\n  "?${m.name.replace('.', '\\.')}"?\\(\\.\\.\\.params: ${pascalCase(m.name)}Params\\)`));
    }
  });

  it('rejects a contract name that would shadow an SDK export', function () {
    const bad = structuredClone(doc) as unknown as { components: { schemas: Record<string, unknown> } };
    bad.components.schemas.JsonRpcError = { type: 'string' };
    expect(() => renderClientFiles(bad)).to.throw(/collides with a name exported by the client SDK/);
  });
});
