// Forking a remote that serves no eth_getProof: the state is read as plain values (eth_getBalance,
// eth_getTransactionCount, eth_getCode, and eth_getStorageValues or eth_getStorageAt), byte for
// byte the remote's, batched, cached for good — and the node says its state roots are not real.
import { expect } from 'chai';
import type { Hex } from 'viem';
import { DEV_ADDRESSES } from '../helpers/node.js';
import { expectRpcError } from '../helpers/transactions.js';
import { balanceOfData, CountingProxy, direct, seedRemote, startFork, transferData, type ForkingNode, type SeededRemote } from '../helpers/fork-remote.js';

const hex = (n: bigint) => `0x${n.toString(16)}`;

/** A seeded remote behind a proxy that refuses `refused` (with `refusal`, else geth's words), and a node forking it, for one describe block. */
function prooflessFixture(refused: string[], more: Parameters<typeof startFork>[1] = {}, refusal?: CountingProxy['refusal']) {
  const f = {} as { remote: SeededRemote; proxy: CountingProxy; fork: ForkingNode };
  before(async () => {
    f.remote = await seedRemote({ blocks: 2, perBlock: 12 });
    f.proxy = await CountingProxy.start(f.remote.node.url);
    for (const method of refused) f.proxy.refused.add(method);
    if (refusal !== undefined) f.proxy.refusal = refusal;
    f.fork = await startFork(f.proxy.url, { blockNumber: f.remote.forkBlock, ...more });
  });
  after(async () => {
    await f.fork?.destroy();
    await f.proxy?.close();
    await f.remote?.node.destroy();
  });
  return f;
}

describe('forking a remote without eth_getProof', () => {
  const f = prooflessFixture(['eth_getProof']);
  let next = 0;
  const balanceCall = (i: number) => ({ to: f.remote.token, data: balanceOfData(f.remote.holders[i]) });

  it('says in anvil_nodeInfo that its state roots are local, not the remote’s', async () => {
    const info = await f.fork.call('anvil_nodeInfo', []);
    expect(info.forkConfig.stateRoots).to.equal('local');
  });

  it('refuses eth_getProof rather than prove against roots that are not real', async () => {
    await expectRpcError(f.fork.call('eth_getProof', [f.remote.token, [], 'latest']), -32000, /serves no eth_getProof.*prove nothing/);
  });

  it('reads balances, nonces, code, storage and eth_call at the fork block as the remote answers them', async () => {
    const at = hex(f.remote.forkBlock);
    const holder = f.remote.holders[4];
    for (const [method, params] of [
      ['eth_getTransactionCount', [DEV_ADDRESSES[0], at]],
      ['eth_getCode', [f.remote.token, at]],
      ['eth_getStorageAt', [f.remote.token, '0x2', at]],
      ['eth_getBalance', [holder, at]],
      ['eth_getCode', [holder, at]],
      ['eth_call', [balanceCall(next++), at]],
    ] as const) {
      expect(await f.fork.call(method as 'eth_getBalance', params as never), `${method}`).to.equal(await direct(f.remote, method, [...params]));
    }
  });

  it('fetches the slots of reads that miss together by eth_getStorageValues, once', async () => {
    const cold = [next++, next++, next++, next++];
    f.proxy.reset();
    const answers = await Promise.all([...cold, ...cold].map((i) => f.fork.call('eth_call', [balanceCall(i), 'latest'])));
    const counts = f.proxy.reset();
    // Slots asked for in the same turn share one call; reads arriving over HTTP need not.
    expect(Object.keys(counts.calls)).to.deep.equal(['eth_getStorageValues']);
    expect(counts.calls.eth_getStorageValues).to.be.at.most(cold.length);
    expect(counts.http).to.be.lessThan(cold.length);
    for (const [i, holder] of cold.entries()) expect(answers[i]).to.equal(await direct(f.remote, 'eth_call', [balanceCall(holder), 'latest']));
    await Promise.all(cold.map((i) => f.fork.call('eth_call', [balanceCall(i), 'latest'])));
    expect(f.proxy.reset().total).to.equal(0);
  });

  it('fetches an account as balance, nonce and code in one batch, once', async () => {
    const holder = f.remote.holders[8];
    f.proxy.reset();
    expect(await f.fork.call('eth_getBalance', [holder, 'latest'])).to.equal(await direct(f.remote, 'eth_getBalance', [holder, 'latest']));
    expect(await f.fork.call('eth_getTransactionCount', [holder, 'latest'])).to.equal('0x0');
    expect(f.proxy.reset()).to.deep.include({ http: 1, calls: { eth_getBalance: 1, eth_getTransactionCount: 1, eth_getCode: 1 } });
  });

  it('writes on top of the remote’s values: a holder’s whole balance moved reads zero, not the remote’s', async () => {
    const i = next++;
    const from = f.remote.holders[(i + 3) & ~3];
    const to = f.remote.holders[i];
    const amount = BigInt(await f.fork.call('eth_call', [balanceCall(f.remote.holders.indexOf(from)), 'latest']));
    const before = BigInt(await f.fork.call('eth_call', [balanceCall(i), 'latest']));
    await f.fork.call('anvil_impersonateAccount', [from]);
    await f.fork.call('eth_sendTransaction', [{ from, to: f.remote.token, data: transferData(to, amount), gas: '0x30000' }]);
    expect(BigInt(await f.fork.call('eth_call', [{ to: f.remote.token, data: balanceOfData(from) }, 'latest']))).to.equal(0n);
    expect(BigInt(await f.fork.call('eth_call', [balanceCall(i), 'latest']))).to.equal(before + amount);
    // The fork block's state is still the remote's.
    const at = hex(f.remote.forkBlock);
    expect(await f.fork.call('eth_call', [{ to: f.remote.token, data: balanceOfData(from) }, at])).to.equal(await direct(f.remote, 'eth_call', [{ to: f.remote.token, data: balanceOfData(from) }, at]));
  });

  it('fails naming the remote problem once the tries run out, never reading a zero, and reads right later', async () => {
    const i = next++;
    f.proxy.faults.tooManyRequests = 100;
    await expectRpcError(f.fork.call('eth_call', [balanceCall(i), 'latest']), -32000, /fork's remote .* failed eth_getStorageValues after \d+ tries: HTTP 429/);
    f.proxy.faults.tooManyRequests = 0;
    expect(await f.fork.call('eth_call', [balanceCall(i), 'latest'])).to.equal(await direct(f.remote, 'eth_call', [balanceCall(i), 'latest']));
  });

  it('asks the remote for the fork block alone on a restart with the same cache', async () => {
    await Promise.all([0, 1, 2, 3].map((i) => f.fork.call('eth_call', [balanceCall(i), 'latest'])));
    await f.fork.stop();
    f.proxy.reset();
    const again = await startFork(f.proxy.url, { blockNumber: f.remote.forkBlock }, {}, f.fork.cacheDir);
    try {
      expect(f.proxy.reset().calls).to.deep.equal({ eth_chainId: 1, eth_getBlockByNumber: 1 });
      expect(await Promise.all([0, 1, 2, 3].map((i) => again.call('eth_call', [balanceCall(i), hex(f.remote.forkBlock)])))).to.deep.equal(
        await Promise.all([0, 1, 2, 3].map((i) => direct(f.remote, 'eth_call', [balanceCall(i), hex(f.remote.forkBlock)]))),
      );
      expect((await again.call('anvil_nodeInfo', [])).forkConfig.stateRoots).to.equal('local');
      expect(f.proxy.reset().total).to.equal(0);
    } finally {
      await again.destroy();
    }
  });
});

describe('forking a remote without eth_getProof nor eth_getStorageValues', () => {
  const f = prooflessFixture(['eth_getProof', 'eth_getStorageValues']);

  it('reads slots with eth_getStorageAt, one per slot, batched, once eth_getStorageValues was refused', async () => {
    const cold = [1, 2, 3, 5].map((i) => ({ to: f.remote.token as Hex, data: balanceOfData(f.remote.holders[i]) }));
    await f.fork.call('eth_call', [{ to: f.remote.token, data: balanceOfData(f.remote.holders[0]) }, 'latest']);
    f.proxy.reset();
    const answers = await Promise.all(cold.map((call) => f.fork.call('eth_call', [call, 'latest'])));
    const counts = f.proxy.reset();
    expect(counts.calls).to.deep.equal({ eth_getStorageAt: cold.length });
    expect(counts.http).to.be.lessThan(cold.length);
    for (const [i, call] of cold.entries()) expect(answers[i]).to.equal(await direct(f.remote, 'eth_call', [call, 'latest']));
  });
});

for (const [remote, refusal] of [
  ['Ganache', { code: -32700, message: (method: string) => `The method ${method} does not exist/is not available` }],
  ['a node that forks itself', { code: -32000, message: (method: string) => `The action \`${method} of locally modified state in fork mode\` is unsupported` }],
] as const) {
  describe(`forking a remote that refuses methods as ${remote} does (code ${refusal.code})`, () => {
    const f = prooflessFixture(['eth_getProof', 'eth_getStorageValues'], {}, refusal);

    it('reads the state as plain values, slots by eth_getStorageAt once eth_getStorageValues was refused, and asks no more for what it refused', async () => {
      expect((await f.fork.call('anvil_nodeInfo', [])).forkConfig.stateRoots).to.equal('local');
      const cold = [1, 2, 3].map((i) => ({ to: f.remote.token as Hex, data: balanceOfData(f.remote.holders[i]) }));
      await f.fork.call('eth_call', [{ to: f.remote.token, data: balanceOfData(f.remote.holders[0]) }, 'latest']);
      f.proxy.reset();
      const answers = await Promise.all(cold.map((call) => f.fork.call('eth_call', [call, 'latest'])));
      expect(f.proxy.reset().calls).to.deep.equal({ eth_getStorageAt: cold.length });
      for (const [i, call] of cold.entries()) expect(answers[i]).to.equal(await direct(f.remote, 'eth_call', [call, 'latest']));
    });
  });
}
