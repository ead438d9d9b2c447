// anvil_setRpcUrl on a fork: what the node has not fetched comes from the new endpoint from then on,
// and the chain — its local blocks, state and cache — stays, as anvil keeps it. An endpoint of
// another chain is refused.
import { expect } from 'chai';
import type { Hex } from 'viem';
import { DEV_ADDRESSES } from '../helpers/node.js';
import { balanceOfData, CountingProxy, direct, forkFixture, seedRemote } from '../helpers/fork-remote.js';
import { expectRpcError } from '../helpers/transactions.js';

describe('forking: anvil_setRpcUrl', () => {
  const f = forkFixture({ blocks: 2, perBlock: 4 });
  let other: CountingProxy;
  before(async () => {
    other = await CountingProxy.start(f.remote.node.url);
  });
  after(() => other?.close());

  it('keeps the chain and its local blocks, and reads what it lacks from the new endpoint alone', async () => {
    const hash = await f.fork.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
    const head = await f.fork.call('eth_blockNumber', []);
    await f.fork.call('anvil_setRpcUrl', [other.url]);
    f.proxy.reset();
    other.reset();
    expect(await f.fork.call('eth_blockNumber', [])).to.equal(head);
    expect((await f.fork.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x1');
    const call = { to: f.remote.token, data: balanceOfData(f.remote.holders[5] as Hex) };
    expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(await direct(f.remote, 'eth_call', [call, 'latest']));
    expect(f.proxy.reset().total).to.equal(0);
    expect(other.reset().total).to.be.greaterThan(0);
    expect((await f.fork.call('anvil_nodeInfo', [])).forkConfig.forkUrl).to.equal(other.url);
  });

  it('refuses an endpoint of another chain with -32000, and the fork reads on as before', async () => {
    const stranger = await seedRemote({ blocks: 1, perBlock: 1 });
    try {
      const head = await f.fork.call('eth_blockNumber', []);
      await expectRpcError(f.fork.call('anvil_setRpcUrl', [stranger.node.url]), -32000, /serves another chain than the fork's/);
      expect(await f.fork.call('eth_blockNumber', [])).to.equal(head);
      expect((await f.fork.call('anvil_nodeInfo', [])).forkConfig.forkUrl).to.equal(other.url);
    } finally {
      await stranger.node.destroy();
    }
  });
});
