// docs/api.md must be what the generator makes of the current openrpc.json.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DOCS_FILE, DOCS_HEADER, renderDocs } from '../../scripts/generator/docs.js';
import { readDocument } from '../../shared/contract/document.js';
import { projectRoot } from '../../shared/contract/root.js';

type Json = { [key: string]: unknown };

const root = projectRoot();
const doc = readDocument(path.join(root, 'openrpc.json')) as Json;
const methods = doc.methods as Json[];

describe('docs/api.md (rendered API reference)', function () {
  let text: string;

  before(function () {
    try {
      text = readFileSync(path.join(root, DOCS_FILE), 'utf8');
    } catch {
      throw new Error(`${DOCS_FILE} is missing; run \`npm run generate\``);
    }
  });

  it('is up to date with openrpc.json (run `npm run generate` if this fails)', function () {
    if (text !== renderDocs(doc)) throw new Error(`${DOCS_FILE} is stale relative to openrpc.json; run \`npm run generate\``);
  });

  it('starts with the generated header', function () {
    expect(text.startsWith(DOCS_HEADER + '\n')).to.equal(true);
  });

  it('documents every method: heading, summary, params, result, errors, examples', function () {
    for (const m of methods) {
      const start = text.indexOf(`\n### ${m.name as string}\n`);
      expect(start, `heading for ${m.name as string}`).to.be.greaterThan(0);
      const end = text.indexOf('\n### ', start + 5);
      const section = text.slice(start, end === -1 ? undefined : end);
      if (m.summary) expect(section).to.include(m.summary as string);
      expect(section).to.match(/\*\*Params(\*\*|:\*\* none)/);
      expect(section).to.include('**Result');
      for (const e of (m.errors as Json[] | undefined) ?? []) expect(section).to.include(`| ${String(e.code)} |`);
      if (((m.examples as unknown[] | undefined) ?? []).length > 0) {
        expect(section).to.include('**Examples**');
        expect(section).to.include(`"method": ${JSON.stringify(m.name)}`);
      }
    }
  });

  it('documents every schema and links only to anchors it defines', function () {
    const schemas = Object.keys(((doc.components as Json).schemas ?? {}) as Json);
    for (const key of schemas) expect(text).to.include(`\n### ${key}\n`);
    const headings = new Set([...text.matchAll(/^#{1,4} (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')));
    // Headings repeated (e.g. a tag and a schema of the same name) get -1, -2…; accept those too.
    const links = [...text.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    const missing = links.filter((a) => !headings.has(a) && !headings.has(a.replace(/-\d+$/, '')));
    expect([...new Set(missing)]).to.deep.equal([]);
  });
});
