import { expect } from 'chai';
import { transfer } from '../../helpers/activity.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_getTransactionCount', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('answers 0x0 for a dev account that has sent nothing', async () => {
    expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'latest'])).to.equal('0x0');
  });

  it('counts the mined transactions of the sender, and not those it received', async () => {
    await transfer(node, DEV_ADDRESSES[1], 1n);
    await transfer(node, DEV_ADDRESSES[1], 1n);
    expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'latest'])).to.equal('0x2');
    expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[1], 'latest'])).to.equal('0x0');
  });

  it('answers the count as of a past block', async () => {
    const first = await transfer(node, DEV_ADDRESSES[1], 1n);
    await transfer(node, DEV_ADDRESSES[1], 1n);
    expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'earliest'])).to.equal('0x0');
    expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], first.blockNumber])).to.equal('0x1');
    expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], first.blockHash])).to.equal('0x1');
  });

  it('counts the transactions waiting in the pool for pending, but not for latest', async () => {
    await transfer(node, DEV_ADDRESSES[1], 1n);
    await node.call('evm_setAutomine', [false]);
    await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
    await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
    expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'latest'])).to.equal('0x1');
    expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'pending'])).to.equal('0x3');
  });

  it('answers the same for pending as for latest when the pool holds nothing of the account', async () => {
    await transfer(node, DEV_ADDRESSES[1], 1n);
    expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'pending'])).to.equal('0x1');
  });

  it('accepts a checksummed address for pending', async () => {
    await node.call('evm_setAutomine', [false]);
    await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
    expect(await node.call('eth_getTransactionCount', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'pending'])).to.equal('0x1');
  });
});
