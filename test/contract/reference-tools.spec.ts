// The contract in the OpenRPC ecosystem's own tools, as an API consumer points them at it: schema-utils-js's
// parseOpenRPCDocument (what the OpenRPC playground, inspector and generator load a document with) validates and
// dereferences openrpc.json and what rpc.discover serves, and @open-rpc/generator writes its TypeScript client from
// it, a client that type-checks. Each tool runs in a worker with a deadline (test/helpers/reference-tools.ts): a
// `$ref` cycle, which `evm-node contract lint` refuses, makes the parser run until the heap is full.
import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { methodNames } from '../../generated/index.js';
import { loadContract } from '../../shared/contract/document.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { generateReferenceClient, parseWithReferenceParser } from '../helpers/reference-tools.js';

/** Generous for a shared 2-core machine; the parser takes ~0.2 s, and before the fix it never returned. */
const DEADLINE_MS = 20_000;

type Json = { [key: string]: unknown };

/** JSON pointers of every `$ref` left in `value`. */
function refsLeft(value: unknown, at = '#'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => refsLeft(v, `${at}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (k === '$ref' ? [at] : refsLeft(v, `${at}/${k}`)));
}

function expectDereferenced(parsed: unknown): void {
  const methods = (parsed as { methods: Json[] }).methods;
  expect(methods.map((m) => m.name).sort()).to.deep.equal([...methodNames]);
  expect(refsLeft(methods, '#/methods')).to.deep.equal([]);
}

/** `declare module`s giving every name `source` imports the type and value `any`. */
function untypedImports(source: string): string {
  return [...source.matchAll(/^import (.+) from "(.+)";$/gm)]
    .map(([, clause, module]) => {
      const named = /\{(.+)\}/.exec(clause!)?.[1]?.split(',').map((n) => n.trim().split(/\s+as\s+/)[0]!) ?? [];
      const lines = named.map((n) => `  export const ${n}: any;\n  export type ${n} = any;`);
      if (!clause!.startsWith('{')) lines.push('  const defaultExport: any;\n  export default defaultExport;');
      return `declare module "${module}" {\n${lines.join('\n')}\n}\n`;
    })
    .join('');
}

describe('the contract in the reference OpenRPC tools', function () {
  this.timeout(DEADLINE_MS * 2);

  describe("schema-utils-js's parseOpenRPCDocument", function () {
    let node: TestNode;

    before(async function () {
      node = await startTestNode();
    });
    after(() => node.destroy());

    it('loads and dereferences openrpc.json', async function () {
      const run = await parseWithReferenceParser(loadContract(), DEADLINE_MS);
      expect(run.error).to.equal(undefined);
      expectDereferenced(run.value);
    });

    it("loads and dereferences rpc.discover's answer", async function () {
      const run = await parseWithReferenceParser(await node.call('rpc.discover', []), DEADLINE_MS);
      expect(run.error).to.equal(undefined);
      expectDereferenced(run.value);
    });

    it('sees a call frame’s nested calls as objects, the bound x-recursive-ref gives them', async function () {
      const run = await parseWithReferenceParser(loadContract(), DEADLINE_MS);
      const trace = (run.value as { methods: Json[] }).methods.find((m) => m.name === 'debug_traceTransaction')!;
      const frame = ((trace.result as Json).schema as { anyOf: Json[] }).anyOf.find((s) => s.title === 'CallFrame') as { properties: Json };
      expect(frame.properties.calls).to.deep.include({ type: 'array' });
      expect((frame.properties.calls as Json).items).to.deep.include({ type: 'object', 'x-recursive-ref': '#/components/schemas/CallFrame' });
    });

    it('gives up on a document with a $ref cycle (what the lint refuses), within the deadline here', async function () {
      const cyclic = loadContract() as { components: { schemas: Json } };
      cyclic.components.schemas.CallFrame = { type: 'object', properties: { calls: { type: 'array', items: { $ref: '#/components/schemas/CallFrame' } } } };
      const outcome = await parseWithReferenceParser(cyclic, 3_000, 256).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      expect(outcome).to.match(/^no answer within 3000 ms|^the worker died \(.*memory/);
    });
  });

  describe("@open-rpc/generator's TypeScript client", function () {
    let out: string;
    let source: string;

    before(async function () {
      out = await mkdtemp(path.join(tmpdir(), 'evm-node-openrpc-generator-'));
      const run = await generateReferenceClient(loadContract(), out, DEADLINE_MS);
      if (run.error !== undefined) throw new Error(`the generator failed: ${run.error}\n${run.output.join('\n')}`);
      source = await readFile(path.join(out, 'client', 'typescript', 'src', 'index.ts'), 'utf8');
    });
    after(() => rm(out, { recursive: true, force: true }));

    it('has a member for every method', function () {
      for (const name of methodNames) expect(source, name).to.include(`public ${name}: `);
    });

    it('type-checks, but for the member of rpc.discover (open-rpc/generator#619: dotted names are written as they are)', async function () {
      const file = path.join(out, 'client', 'typescript', 'src', 'index.ts');
      // Its runtime dependencies are not installed here: declared untyped, what is checked is the generated part —
      // the types @open-rpc/typings names after the contract's schemas and methods, and the members using them.
      const stubs = path.join(out, 'client', 'typescript', 'src', 'dependencies.d.ts');
      await writeFile(stubs, untypedImports(source));
      const program = ts.createProgram([file, stubs], {
        strict: true,
        noImplicitAny: false,
        noEmit: true,
        target: ts.ScriptTarget.ES2020,
        module: ts.ModuleKind.CommonJS,
        esModuleInterop: true,
        resolveJsonModule: true,
        skipLibCheck: true,
        types: [],
      });
      const discoverLine = source.split('\n').findIndex((line) => line.includes('public rpc.discover:'));
      expect(discoverLine).to.be.at.least(0);
      const problems = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file === undefined || d.file.getLineAndCharacterOfPosition(d.start ?? 0).line !== discoverLine)
        .map((d) => `${d.file ? `line ${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
      expect(problems).to.deep.equal([]);
    });
  });
});
