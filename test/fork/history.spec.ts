// Forking: history at and below the fork block comes from the remote, as the remote answers it,
// and is kept: asked again, it costs no remote call. Log ranges spanning the fork block are merged.
import { expect } from 'chai';
import type { Hex } from 'viem';
import { balanceOfData, CountingProxy, direct, seedRemote, startFork, transferData, type ForkingNode, type SeededRemote } from '../helpers/fork-remote.js';
import { DEV_ADDRESSES } from '../helpers/node.js';

const hex = (n: bigint) => `0x${n.toString(16)}`;
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

describe('forking: history at and below the fork block', () => {
  let remote: SeededRemote;
  let proxy: CountingProxy;
  let fork: ForkingNode;

  before(async () => {
    remote = await seedRemote();
    proxy = await CountingProxy.start(remote.node.url);
    fork = await startFork(proxy.url, { blockNumber: remote.forkBlock });
  });
  after(async () => {
    await fork?.destroy();
    await proxy?.close();
    await remote?.node.destroy();
  });

  it('takes a receipt that carries its block’s timestamp (as geth’s do) in one remote call, its block unread', async () => {
    proxy.edits.eth_getTransactionReceipt = async (receipt) => {
      const { blockNumber } = receipt as { blockNumber: string };
      const { timestamp } = await direct<{ timestamp: string }>(remote, 'eth_getBlockByNumber', [blockNumber, false]);
      return { ...(receipt as object), blockTimestamp: timestamp };
    };
    try {
      const hash = remote.transfers[3];
      proxy.reset();
      expect(await fork.call('eth_getTransactionReceipt', [hash])).to.deep.equal(await direct(remote, 'eth_getTransactionReceipt', [hash]));
      expect(proxy.reset().calls).to.deep.equal({ eth_getTransactionReceipt: 1 });
    } finally {
      proxy.edits = {};
    }
  });

  it('answers blocks below and at the fork block as the remote does, by number and by hash', async () => {
    for (let n = 0n; n <= remote.forkBlock; n++) {
      const theirs = await direct<{ hash: string }>(remote, 'eth_getBlockByNumber', [hex(n), true]);
      expect(await fork.call('eth_getBlockByNumber', [hex(n), true]), `block ${n}`).to.deep.equal(theirs);
      expect(await fork.call('eth_getBlockByHash', [theirs.hash, false])).to.deep.equal(await direct(remote, 'eth_getBlockByHash', [theirs.hash, false]));
    }
  });

  it('answers "earliest" with the remote’s first block, not the fork block', async () => {
    expect((await fork.call('eth_getBlockByNumber', ['earliest', false]))?.number).to.equal('0x0');
  });

  it('answers the remote’s transactions and receipts as the remote does', async () => {
    for (const hash of [remote.transfers[0], remote.transfers.at(-1)!]) {
      expect(await fork.call('eth_getTransactionReceipt', [hash])).to.deep.equal(await direct(remote, 'eth_getTransactionReceipt', [hash]));
      expect(await fork.call('eth_getTransactionByHash', [hash])).to.deep.equal(await direct(remote, 'eth_getTransactionByHash', [hash]));
    }
    const at = hex(remote.forkBlock);
    expect(await fork.call('eth_getBlockReceipts', [at])).to.deep.equal(await direct(remote, 'eth_getBlockReceipts', [at]));
  });

  it('asks the remote nothing for history it has answered once', async () => {
    proxy.reset();
    await fork.call('eth_getBlockByNumber', ['0x2', true]);
    await fork.call('eth_getTransactionReceipt', [remote.transfers[0]]);
    await fork.call('eth_getBlockReceipts', [hex(remote.forkBlock)]);
    expect(proxy.reset().total).to.equal(0);
  });

  it('answers a transaction the remote never mined with null, and remembers it', async () => {
    const unknown = `0x${'ab'.repeat(32)}` as Hex;
    proxy.reset();
    expect(await fork.call('eth_getTransactionReceipt', [unknown])).to.equal(null);
    expect(await fork.call('eth_getTransactionReceipt', [unknown])).to.equal(null);
    expect(proxy.reset().total).to.equal(1);
  });

  it('runs calls and traces at a block before the fork on the remote’s state at that block', async () => {
    const before = hex(remote.forkBlock - 1n);
    const call = { to: remote.token, data: balanceOfData(remote.holders[0]) };
    expect(await fork.call('eth_call', [call, before])).to.equal(await direct(remote, 'eth_call', [call, before]));
    const hash = remote.transfers.at(-1)!;
    expect(await fork.call('debug_traceTransaction', [hash, { tracer: 'callTracer' }])).to.deep.equal(await direct(remote, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]));
  });

  it('merges logs of a range spanning the fork block: the remote’s, then the fork’s own', async () => {
    await fork.call('anvil_impersonateAccount', [DEV_ADDRESSES[0]]);
    const hash = await fork.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: remote.token, data: transferData(remote.holders[0], 5n) }]);
    const filter = { address: remote.token, topics: [TRANSFER], fromBlock: '0x0', toBlock: 'latest' };
    const logs = await fork.call('eth_getLogs', [filter]);
    const theirs = await direct<unknown[]>(remote, 'eth_getLogs', [{ ...filter, toBlock: hex(remote.forkBlock) }]);
    expect(logs.slice(0, theirs.length)).to.deep.equal(theirs);
    expect(logs.slice(theirs.length).map((log) => log.transactionHash)).to.deep.equal([hash]);
  });

  it('sends no receipt request to the remote for a transaction of its own pool', async () => {
    await fork.call('evm_setAutomine', [false]);
    try {
      const hash = await fork.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
      proxy.reset();
      expect(await fork.call('eth_getTransactionReceipt', [hash])).to.equal(null);
      expect(proxy.reset().total).to.equal(0);
    } finally {
      await fork.call('evm_setAutomine', [true]);
    }
  });
});
