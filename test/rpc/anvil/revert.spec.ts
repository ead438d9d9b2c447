// anvil's name for evm_revert (src/methods/aliases.ts).
import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('anvil_revert', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('goes back to a snapshot, as evm_revert does, and answers whether it did', async () => {
    const id = await node.call('anvil_snapshot', []);
    await node.call('evm_mine', []);
    expect(await node.call('anvil_revert', [id])).to.equal(true);
    expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
    expect(await node.call('anvil_revert', [id])).to.equal(false);
  });
});
