// anvil's name for evm_snapshot (src/methods/aliases.ts).
import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('anvil_snapshot', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('takes a snapshot as evm_snapshot does, sharing its ids', async () => {
    expect(await node.call('anvil_snapshot', [])).to.equal('0x1');
    expect(await node.call('evm_snapshot', [])).to.equal('0x2');
    expect(await node.call('anvil_snapshot', [])).to.equal('0x3');
  });
});
