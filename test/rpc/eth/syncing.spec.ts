import { expect } from 'chai';
import { transfer } from '../../helpers/activity.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_syncing', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('answers false on a fresh chain, which imports nothing', async () => {
    expect(await node.call('eth_syncing', [])).to.equal(false);
  });

  it('still answers false after the node has mined blocks of its own', async () => {
    await transfer(node, DEV_ADDRESSES[1], 1n);
    expect(await node.call('eth_syncing', [])).to.equal(false);
  });
});
