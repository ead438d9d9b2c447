// Forking: what a failing remote does to the fork. Rate limits (HTTP 429, an error inside one entry
// of a batch answer), timeouts and dropped connections are tried again; when the tries run out the
// request fails naming the remote problem — never answered, nor cached, as a zero.
import { expect } from 'chai';
import type { Hex } from 'viem';
import { expectRpcError } from '../helpers/transactions.js';
import { balanceOfData, CountingProxy, direct, seedRemote, startFork, type ForkingNode, type SeededRemote } from '../helpers/fork-remote.js';

describe('forking: remote faults', () => {
  let remote: SeededRemote;
  let proxy: CountingProxy;
  let fork: ForkingNode;
  let next = 0;

  before(async () => {
    remote = await seedRemote({ blocks: 2, perBlock: 12 });
    proxy = await CountingProxy.start(remote.node.url);
    fork = await startFork(proxy.url, { blockNumber: remote.forkBlock, retries: 3, backoffMs: 10, timeoutMs: 300 });
  });
  afterEach(() => {
    proxy.faults = { latencyMs: 0, tooManyRequests: 0, entryErrors: 0, hangs: 0, disconnects: 0 };
  });
  after(async () => {
    await fork?.destroy();
    await proxy?.close();
    await remote?.node.destroy();
  });

  /** A holder the fork has not read yet, and what the remote says it holds. */
  async function coldHolder(): Promise<{ call: { to: Hex; data: Hex }; expected: string }> {
    const call = { to: remote.token, data: balanceOfData(remote.holders[next++]) };
    return { call, expected: await direct<string>(remote, 'eth_call', [call, 'latest']) };
  }

  for (const [fault, faults] of [
    ['HTTP 429 with Retry-After', { tooManyRequests: 2 }],
    ['a rate-limit error inside the batch answer', { entryErrors: 2 }],
    ['a request that times out', { hangs: 1 }],
    ['a dropped connection', { disconnects: 2 }],
  ] as const) {
    it(`tries again after ${fault}, and answers right`, async () => {
      const { call, expected } = await coldHolder();
      proxy.faults = { ...proxy.faults, ...faults };
      proxy.reset();
      expect(await fork.call('eth_call', [call, 'latest'])).to.equal(expected);
      expect(proxy.reset().http).to.be.greaterThan(1);
    });
  }

  it('fails naming the remote problem once the tries run out, and a later read gets the real value', async () => {
    const { call, expected } = await coldHolder();
    proxy.faults.tooManyRequests = 100;
    await expectRpcError(fork.call('eth_call', [call, 'latest']), -32000, /fork's remote .* failed eth_getProof after 4 tries: HTTP 429/);
    proxy.faults.tooManyRequests = 0;
    expect(await fork.call('eth_call', [call, 'latest'])).to.equal(expected);
  });

  it('a failed fetch of a balance is an error, not a zero balance', async () => {
    const holder = remote.holders[next++];
    proxy.faults.tooManyRequests = 100;
    await expectRpcError(fork.call('eth_getBalance', [holder, 'latest']), -32000, /fork's remote/);
    proxy.faults.tooManyRequests = 0;
    expect(await fork.call('eth_getBalance', [holder, 'latest'])).to.equal(await direct(remote, 'eth_getBalance', [holder, 'latest']));
  });
});
