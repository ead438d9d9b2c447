import { expect } from 'chai';
import { transfer } from '../../helpers/activity.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_getBlockTransactionCountByNumber', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
    await transfer(node, DEV_ADDRESSES[1], 1n);
    // Block 2 holds three transactions: automine off, three sends, one evm_mine.
    await node.call('evm_setAutomine', [false]);
    for (const to of DEV_ADDRESSES) await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to, value: '0x1' }]);
    await node.call('evm_mine', []);
  });
  after(() => node.destroy());

  it('answers 0x0 for the genesis block, by number and as earliest', async () => {
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['0x0'])).to.equal('0x0');
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['earliest'])).to.equal('0x0');
  });

  it('answers the count of a block given by hex number', async () => {
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['0x1'])).to.equal('0x1');
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['0x2'])).to.equal('0x3');
  });

  it('answers the count of the head for latest, safe and finalized', async () => {
    for (const tag of ['latest', 'safe', 'finalized']) {
      expect(await node.call('eth_getBlockTransactionCountByNumber', [tag]), tag).to.equal('0x3');
    }
  });

  it('answers the count of the transactions waiting to be mined for pending', async () => {
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['pending'])).to.equal('0x0');
    await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: DEV_ADDRESSES[2], value: '0x1' }]);
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['pending'])).to.equal('0x1');
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['latest'])).to.equal('0x3');
  });

  it('answers null for a number past the head', async () => {
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['0x3e8'])).to.equal(null);
  });
});
