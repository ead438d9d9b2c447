import { expect } from 'chai';
import { transfer } from '../../helpers/activity.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_getBlockTransactionCountByHash', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('answers 0x0 for the genesis block', async () => {
    const genesis = (await node.call('eth_getBlockByNumber', ['earliest', false]))!;
    expect(await node.call('eth_getBlockTransactionCountByHash', [genesis.hash])).to.equal('0x0');
  });

  it('answers 0x1 for a block automine made for one transaction', async () => {
    const receipt = await transfer(node, DEV_ADDRESSES[1], 1n);
    expect(await node.call('eth_getBlockTransactionCountByHash', [receipt.blockHash])).to.equal('0x1');
  });

  it('counts every transaction of a block holding several', async () => {
    await node.call('evm_setAutomine', [false]);
    try {
      for (const to of DEV_ADDRESSES) await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to, value: '0x1' }]);
      await node.call('evm_mine', []);
    } finally {
      await node.call('evm_setAutomine', [true]);
    }
    const head = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    expect(await node.call('eth_getBlockTransactionCountByHash', [head.hash])).to.equal('0x3');
  });

  it('answers null for a hash the chain does not hold', async () => {
    expect(await node.call('eth_getBlockTransactionCountByHash', [`0x${'cd'.repeat(32)}`])).to.equal(null);
  });
});
