// Every method of the contract, called with schema-derived bad values: each answer must be a JSON-RPC
// response within 2 s, an error must not be -32603 (which means a bug), a result must satisfy the
// method's result schema — and the chain must still mine afterwards.
import { expect } from 'chai';
import { methodNames, resultError, type MethodName } from '../../generated/index.js';
import { loadContract } from '../../src/contract.js';
import { declaredErrors } from '../../src/contract/diff/diff.js';
import { fuzzCalls } from '../helpers/fuzz-inputs.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';

const SLOW_MS = 2_000;

type Doc = ReturnType<typeof loadContract>;
const methodOf = (doc: Doc, name: string) => {
  const method = (doc.methods as { name?: string }[]).find((m) => m.name === name);
  if (method === undefined) throw new Error(`no method ${name} in the contract`);
  return method as Record<string, unknown>;
};

interface Answer {
  status: number;
  ms: number;
  body: { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  text: string;
}

let nextId = 1;

async function send(url: string, method: string, params: unknown): Promise<Answer & { id: number }> {
  const id = nextId++;
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  const text = await res.text();
  const ms = performance.now() - started;
  let body: Answer['body'];
  try {
    body = JSON.parse(text) as Answer['body'];
  } catch {
    body = undefined;
  }
  return { id, status: res.status, ms, body, text };
}

/** What is wrong with one answer, or undefined when it is a proper answer. */
function problemWith(method: MethodName, answer: Answer & { id: number }, declared: ReadonlySet<number>): string | undefined {
  const { body } = answer;
  if (answer.status !== 200 || body === undefined) return `HTTP ${answer.status}, body ${answer.text.slice(0, 200)}`;
  if (body.jsonrpc !== '2.0' || body.id !== answer.id) return `not a JSON-RPC answer to id ${answer.id}: ${answer.text.slice(0, 200)}`;
  if (answer.ms > SLOW_MS) return `took ${Math.round(answer.ms)} ms`;
  if (body.error !== undefined) {
    if (!Number.isInteger(body.error.code) || typeof body.error.message !== 'string') return `malformed error ${JSON.stringify(body.error)}`;
    // -32603 means a bug, unless the method declares it on purpose (eth_simulateV1 answers with geth's code there).
    if (body.error.code === -32603 && !declared.has(-32603)) return `-32603 ${String(body.error.message)}`;
    return undefined;
  }
  if (!('result' in body)) return `neither result nor error: ${answer.text.slice(0, 200)}`;
  const outside = resultError(method, body.result);
  return outside === null ? undefined : `result outside the contract: ${outside}`;
}

describe('fuzzing every method of the contract', function () {
  this.timeout(120_000);
  const contract = loadContract();
  let node: TestNode;

  before(async () => {
    node = await startTestNode();
  });
  after(async () => node.destroy());

  for (const method of methodNames) {
    it(`${method}: every malformed call gets a JSON-RPC answer within ${SLOW_MS / 1000} s, never -32603`, async () => {
      const problems: string[] = [];
      const declared = new Set([...declaredErrors(contract, methodOf(contract, method)).keys()]);
      for (const call of fuzzCalls(contract, method)) {
        const problem = problemWith(method, await send(node.url, method, call.params), declared);
        if (problem !== undefined) problems.push(`${call.label}: ${problem}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  }

  it('leaves a chain that still mines, on demand and on each transaction', async () => {
    await node.call('evm_setIntervalMining', [0]);
    await node.call('evm_setAutomine', [true]);
    const before = BigInt(await node.call('eth_blockNumber', []));
    await node.call('evm_mine', []);
    expect(BigInt(await node.call('eth_blockNumber', []))).to.equal(before + 1n);
    const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: DEV_ADDRESSES[2], value: '0x1' }]);
    const receipt = await node.call('eth_getTransactionReceipt', [hash]);
    expect(receipt?.status).to.equal('0x1');
    expect(await node.call('eth_getBalance', [DEV_ADDRESSES[2], 'latest'])).to.match(/^0x/);
  });
});
