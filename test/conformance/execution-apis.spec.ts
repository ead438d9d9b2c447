// The execution-apis conformance suite (the cases hive's rpc-compat simulator runs against every
// client): import the test chain into a fresh data dir, serve it, send each case's `>>` lines and
// compare the answers with the `<<` lines geth gave.
//
// Comparison is exact JSON equality except where SPEC makes us differ from geth:
//   - SPEC 2.4: blocks carry `totalDifficulty` (geth dropped it after the merge);
//   - SPEC 2.6: pool transactions carry `incentiveAddress`;
//   - SPEC 2.3: `storageProof` is null, not [], when no storage keys were asked for;
//   - SPEC 7.5 leaves error wording open: an error must have geth's code (and data), not its message.
// Every result must also validate against our contract (openrpc.json); cases marked `speconly` are
// checked against that alone (and an expected error by its code). Methods the node does not serve
// are listed, not counted. The few cases where the node answers otherwise than geth on purpose are
// listed with the reason (KNOWN_DIFFERENCES): they must still differ — once one passes, its entry
// has to go — and they are counted as not passed.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { methodNames, resultError, type MethodName } from '../../generated/index.js';
import { DEFAULTS } from '../../src/config.js';
import { describeImport, importChainFiles } from '../../src/import-chain.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { rpcRaw } from '../helpers/rpc.js';
import { executionApisFixtures } from '../helpers/execution-apis-fixtures.js';


interface Exchange {
  request: string;
  expected: JsonRpcResponse;
}

interface Case {
  method: string;
  name: string;
  comment: string;
  speconly: boolean;
  exchanges: Exchange[];
}

interface JsonRpcResponse {
  jsonrpc: string;
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** An `.io` file, read as hive's rpc-compat reads it: header comments, then `>>`/`<<` line pairs. */
function loadCase(method: string, file: string): Case {
  const test: Case = { method, name: file.replace(/\.io$/, ''), comment: '', speconly: false, exchanges: [] };
  let pending: string | undefined;
  for (const raw of readFileSync(join(FIXTURES, method, file), 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('//')) {
      const text = line.replace(/^\/\/ ?/, '');
      if (test.exchanges.length === 0 && pending === undefined) test.comment += `${text}\n`;
      if (text.startsWith('speconly:')) test.speconly = true;
    } else if (line.startsWith('>>')) {
      pending = line.slice(2).trim();
    } else if (line.startsWith('<<')) {
      if (pending === undefined) throw new Error(`${method}/${file}: a response before any request`);
      test.exchanges.push({ request: pending, expected: JSON.parse(line.slice(2).trim()) as JsonRpcResponse });
      pending = undefined;
    } else {
      throw new Error(`${method}/${file}: invalid line ${line.slice(0, 80)}`);
    }
  }
  return test;
}

const FIXTURES = executionApisFixtures();

/** Cases the node answers otherwise than geth, and why (see docs/conformance.md). */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'eth_simulateV1/ethSimulate-overflow-nonce':
    "geth lets a simulated sender's nonce of 2^64-1 wrap to 0 (uint64 arithmetic) when it does not validate; EIP-2681 forbids that nonce, " +
    '@ethereumjs/tx will not build such a transaction, and the node refuses it as geth itself does with validation',
};
const served = new Set<string>(methodNames);
const methodDirs = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const cases = methodDirs.flatMap((method) =>
  readdirSync(join(FIXTURES, method))
    .filter((file) => file.endsWith('.io'))
    .sort()
    .map((file) => loadCase(method, file)),
);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Our answer with SPEC's deliberate additions to geth's shapes removed, where geth's answer
 * lacks them; everything else is compared untouched.
 */
function withoutSpecAdditions(actual: unknown, expected: unknown, request: { method: string; params?: unknown[] }): unknown {
  if (Array.isArray(actual) && Array.isArray(expected)) {
    return actual.map((item, i) => withoutSpecAdditions(item, expected[i], request));
  }
  if (!isObject(actual) || !isObject(expected)) return actual;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(actual)) {
    if (!(key in expected)) {
      // SPEC 2.4: totalDifficulty on every block object.
      if (key === 'totalDifficulty' && 'sha3Uncles' in actual) continue;
      // SPEC 2.6: incentiveAddress on pool transactions.
      if (key === 'incentiveAddress' && actual.blockHash === null) continue;
    }
    // SPEC 2.3: storageProof is null for an empty key list, where geth answers [].
    if (key === 'storageProof' && value === null && request.method === 'eth_getProof' && Array.isArray(request.params?.[1]) && request.params[1].length === 0) {
      copy[key] = expected[key];
      continue;
    }
    copy[key] = withoutSpecAdditions(value, expected[key], request);
  }
  return copy;
}

/** What the comparison looks at in an error: SPEC 7.5 leaves the wording open, so the code and data. */
const errorEssentials = (error: JsonRpcResponse['error']) =>
  error === undefined ? undefined : error.data === undefined ? { code: error.code } : { code: error.code, data: error.data };

function compare(test: Case, actual: JsonRpcResponse, expected: JsonRpcResponse, request: { method: string; params?: unknown[] }): void {
  if (expected.error !== undefined) {
    expect(actual.error, `expected an error, got result ${JSON.stringify(actual.result)?.slice(0, 500)}`).to.not.equal(undefined);
    if (test.speconly) expect(actual.error!.code, `error code (message: ${actual.error!.message})`).to.equal(expected.error.code);
    else expect(errorEssentials(actual.error), `error (our message: ${actual.error!.message})`).to.deep.equal(errorEssentials(expected.error));
    return;
  }
  expect(actual.error, `expected a result, got error ${JSON.stringify(actual.error)}`).to.equal(undefined);
  // Every answer must keep our contract; a speconly case asks no more than that.
  const problem = resultError(request.method as MethodName, actual.result);
  expect(problem, `result outside our contract: ${JSON.stringify(actual.result)?.slice(0, 500)}`).to.equal(null);
  if (test.speconly) return;
  expect(withoutSpecAdditions(actual.result, expected.result, request)).to.deep.equal(expected.result);
}

describe('execution-apis conformance', function () {
  this.timeout(300_000);
  let node: TestNode;
  let dataDir: string;
  const tally = new Map<string, { passed: number; total: number }>();
  const knownDifferences: string[] = [];

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'evm-node-conformance-'));
    const summary = await importChainFiles(
      { ...DEFAULTS, genesisFlagsGiven: true, dataDir, genesis: join(FIXTURES, 'genesis.json'), forkchoice: join(FIXTURES, 'headfcu.json') },
      [join(FIXTURES, 'chain.rlp')],
      { write: () => undefined },
    );
    console.log(`      ${describeImport(summary).trim().replace(/\n/g, '\n      ')}`);
    // The node serves what it imported, without genesis flags; nothing mines, as in hive, so
    // transactions sent by the cases stay in the pool.
    node = await startTestNode({ mining: false }, dataDir);
  });

  after(async () => {
    await node?.stop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
    const lines = ['', '      execution-apis cases per served method (passed/total):'];
    let passed = 0;
    let total = 0;
    for (const [method, count] of [...tally].sort()) {
      lines.push(`        ${method.padEnd(42)} ${count.passed}/${count.total}`);
      passed += count.passed;
      total += count.total;
    }
    lines.push(`        ${'all served methods'.padEnd(42)} ${passed}/${total}`);
    for (const difference of knownDifferences) lines.push(`      known difference: ${difference}`);
    const notServed = methodDirs.filter((m) => !served.has(m));
    lines.push(`      not served (${notServed.length} methods, ${cases.filter((c) => !served.has(c.method)).length} cases): ${notServed.join(', ')}`);
    console.log(lines.join('\n'));
  });

  for (const method of methodDirs.filter((m) => served.has(m))) {
    describe(method, () => {
      for (const test of cases.filter((c) => c.method === method)) {
        const known = KNOWN_DIFFERENCES[`${method}/${test.name}`];
        it(`${test.name}${test.speconly ? ' (speconly)' : ''}${known === undefined ? '' : ' (known difference)'}`, async () => {
          const count = tally.get(method) ?? { passed: 0, total: 0 };
          tally.set(method, { passed: count.passed, total: count.total + 1 });
          const run = async () => {
            for (const { request, expected } of test.exchanges) {
              const { json } = await rpcRaw(node.url, request);
              const parsed = JSON.parse(request) as { method: string; params?: unknown[] };
              expect(json, `no JSON answer to ${request.slice(0, 200)}`).to.be.an('object');
              compare(test, json as JsonRpcResponse, expected, parsed);
            }
          };
          if (known === undefined) {
            await run();
            tally.get(method)!.passed++;
            return;
          }
          const differs = await run().then(
            () => false,
            () => true,
          );
          expect(differs, `${method}/${test.name} now matches geth: remove it from KNOWN_DIFFERENCES`).to.equal(true);
          knownDifferences.push(`${method}/${test.name}: ${known}`);
        });
      }
    });
  }
});
