// Forking: what a failing remote does to the fork. Rate limits (HTTP 429, an error inside one entry
// of a batch answer), timeouts and dropped connections are tried again; when the tries run out the
// request fails naming the remote problem — never answered, nor cached, as a zero.
import { expect } from 'chai';
import type { Hex } from 'viem';
import { expectRpcError } from '../helpers/transactions.js';
import { balanceOfData, direct, forkFixture, startFork } from '../helpers/fork-remote.js';
import { testLogger } from '../helpers/node.js';

describe('forking: remote faults', () => {
  const f = forkFixture({ blocks: 2, perBlock: 12 }, { retries: 3, backoffMs: 10, timeoutMs: 300 });
  let next = 0;
  afterEach(() => {
    f.proxy.faults = { latencyMs: 0, tooManyRequests: 0, entryErrors: 0, hangs: 0, disconnects: 0 };
  });

  /** A holder the fork has not read yet, and what the remote says it holds. */
  async function coldHolder(): Promise<{ call: { to: Hex; data: Hex }; expected: string }> {
    const call = { to: f.remote.token, data: balanceOfData(f.remote.holders[next++]) };
    return { call, expected: await direct<string>(f.remote, 'eth_call', [call, 'latest']) };
  }

  for (const [fault, faults] of [
    ['HTTP 429 with Retry-After', { tooManyRequests: 2 }],
    ['a rate-limit error inside the batch answer', { entryErrors: 2 }],
    ['a request that times out', { hangs: 1 }],
    ['a dropped connection', { disconnects: 2 }],
  ] as const) {
    it(`tries again after ${fault}, and answers right`, async () => {
      const { call, expected } = await coldHolder();
      f.proxy.faults = { ...f.proxy.faults, ...faults };
      f.proxy.reset();
      expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(expected);
      expect(f.proxy.reset().http).to.be.greaterThan(1);
    });
  }

  it('fails naming the remote problem once the tries run out, and a later read gets the real value', async () => {
    const { call, expected } = await coldHolder();
    f.proxy.faults.tooManyRequests = 100;
    await expectRpcError(f.fork.call('eth_call', [call, 'latest']), -32000, /fork's remote .* failed eth_getStorageValues after 4 tries: HTTP 429/);
    f.proxy.faults.tooManyRequests = 0;
    expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(expected);
  });

  it('says in the node’s log which calls failed, and why, once the tries ran out', async () => {
    const warnings: string[] = [];
    const log = { ...testLogger, warn: (message: string) => void warnings.push(message) };
    const fork = await startFork(f.proxy.url, { blockNumber: f.remote.forkBlock, retries: 1, backoffMs: 10, timeoutMs: 300 }, {}, undefined, log);
    try {
      await f.proxy.quiet();
      f.proxy.faults.tooManyRequests = 100;
      await expectRpcError(fork.call('eth_getBalance', [f.remote.holders[next++], 'latest']), -32000, /fork's remote/);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.match(/^the fork's remote http:\/\/127\.0\.0\.1:\d+ failed eth_getProof after 2 tries: HTTP 429/);
    } finally {
      f.proxy.faults.tooManyRequests = 0;
      await fork.destroy();
    }
  });

  it('a failed fetch of a balance is an error, not a zero balance', async () => {
    const holder = f.remote.holders[next++];
    f.proxy.faults.tooManyRequests = 100;
    await expectRpcError(f.fork.call('eth_getBalance', [holder, 'latest']), -32000, /fork's remote/);
    f.proxy.faults.tooManyRequests = 0;
    expect(await f.fork.call('eth_getBalance', [holder, 'latest'])).to.equal(await direct(f.remote, 'eth_getBalance', [holder, 'latest']));
  });
});
