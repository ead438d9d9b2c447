import { expect } from 'chai';
import { transfer } from '../../helpers/activity.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_blockNumber', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('answers 0x0 on a fresh chain, which holds only its genesis', async () => {
    expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
  });

  it('counts one block per transaction mined by automine', async () => {
    await transfer(node, DEV_ADDRESSES[1], 1n);
    expect(await node.call('eth_blockNumber', [])).to.equal('0x1');
    await transfer(node, DEV_ADDRESSES[1], 1n);
    expect(await node.call('eth_blockNumber', [])).to.equal('0x2');
  });

  it('answers the number of the block that latest names', async () => {
    await transfer(node, DEV_ADDRESSES[1], 1n);
    const latest = await node.call('eth_getBlockByNumber', ['latest', false]);
    expect(await node.call('eth_blockNumber', [])).to.equal(latest!.number);
  });

  it('counts blocks mined with evm_mine, empty ones included', async () => {
    await node.call('evm_mine', []);
    await node.call('evm_mine', []);
    expect(await node.call('eth_blockNumber', [])).to.equal('0x2');
  });
});
