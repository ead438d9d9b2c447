// Contract examples that depend on chain history ("x-fixture": "fixture-chain" in openrpc.json) replayed against
// the deterministic fixture chain (test/helpers/fixture-chain.ts): each example's params are sent and the answer
// must equal its result exactly, and satisfy the result schema.
//
// After a change that legitimately moves these values (the dev genesis, the fixture script, block building):
//   WRITE_FIXTURE_EXAMPLES=1 npx mocha 'dist/test/fixture-chain/*.spec.js'
//   npm run generate
// rewrites those examples' results in openrpc.json from the node's answers (review the diff).
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resultError, type MethodName } from '../../generated/index.js';
import { projectRoot } from '../../shared/contract/root.js';
import { EMITTER_ADDRESS, EMITTER_RUNTIME, EMITTER_TOPIC, buildFixtureChain, type FixtureChain } from '../helpers/fixture-chain.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { rpc } from '../helpers/rpc.js';

type Json = { [key: string]: unknown };

const FIXTURE = 'fixture-chain';
const WRITE = process.env.WRITE_FIXTURE_EXAMPLES === '1';
const docPath = path.join(projectRoot(), 'openrpc.json');

function fixtureExamples(doc: Json): { method: string; example: Json }[] {
  const out: { method: string; example: Json }[] = [];
  for (const m of doc.methods as Json[]) {
    for (const example of (m.examples as Json[] | undefined) ?? []) {
      if (example['x-fixture'] === FIXTURE) out.push({ method: m.name as string, example });
    }
  }
  return out;
}

describe('contract examples on the deterministic fixture chain', function () {
  this.timeout(60_000);
  const doc = JSON.parse(readFileSync(docPath, 'utf8')) as Json;
  const examples = fixtureExamples(doc);
  const answers = new Map<string, unknown>();
  let node: TestNode;
  let chain: FixtureChain;

  before(async function () {
    node = await startTestNode({ mining: false });
    chain = await buildFixtureChain(node);
  });

  after(async function () {
    await node?.destroy();
    if (!WRITE || answers.size === 0) return;
    // Re-read: write only these results into the current document.
    const current = JSON.parse(readFileSync(docPath, 'utf8')) as Json;
    for (const { method, example } of fixtureExamples(current)) {
      const key = `${method}/${example.name as string}`;
      if (answers.has(key)) (example.result as Json).value = answers.get(key);
    }
    writeFileSync(docPath, JSON.stringify(current, null, 2) + '\n');
    console.warn(`      rewrote ${answers.size} fixture-chain example results in openrpc.json; now run npm run generate`);
  });

  it('builds the same chain every time (fixed timestamps, deterministic signatures)', async function () {
    const again = await startTestNode({ mining: false });
    try {
      expect(await buildFixtureChain(again)).to.deep.equal(chain);
    } finally {
      await again.destroy();
    }
  });

  it("holds the eth_sendRawTransaction example's transaction in block 1", function () {
    const m = (doc.methods as Json[]).find((x) => x.name === 'eth_sendRawTransaction')!;
    const example = (m.examples as Json[])[0]!;
    expect(chain.blocks[0]!.raw).to.equal((example.params as Json[])[0]!.value);
    expect(chain.blocks[0]!.txHash).to.equal((example.result as Json).value);
  });

  it('holds the emitter contract and its log', async function () {
    expect(await rpc(node.url, 'eth_getCode', [EMITTER_ADDRESS, 'latest'])).to.equal(EMITTER_RUNTIME);
    const receipt = await rpc<{ logs: { topics: string[] }[] }>(node.url, 'eth_getTransactionReceipt', [chain.blocks[2]!.txHash]);
    expect(receipt.logs.map((l) => l.topics)).to.deep.equal([[EMITTER_TOPIC]]);
  });

  it('has history-dependent examples to replay', function () {
    expect(examples.length, `examples marked "x-fixture": "${FIXTURE}"`).to.be.greaterThan(0);
  });

  for (const { method, example } of examples) {
    it(`${method}: ${example.name as string}`, async function () {
      const params = ((example.params as Json[] | undefined) ?? []).map((p) => p.value);
      const answer = await rpc(node.url, method, params);
      expect(resultError(method as MethodName, answer), 'result schema').to.equal(null);
      if (WRITE) {
        answers.set(`${method}/${example.name as string}`, answer);
        return;
      }
      expect(answer, 'the example result (WRITE_FIXTURE_EXAMPLES=1 rewrites it)').to.deep.equal((example.result as Json).value);
    });
  }
});
