// anvil's name for evm_setAutomine (src/methods/aliases.ts), answered as anvil answers.
import { expect } from 'chai';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';

describe('anvil_setAutomine', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('switches automine off and on, and answers null', async () => {
    expect(await node.call('anvil_setAutomine', [false])).to.equal(null);
    expect(await node.call('anvil_getAutomine', [])).to.equal(false);
    const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
    expect(await node.call('eth_getTransactionReceipt', [hash])).to.equal(null);
    await node.call('anvil_setAutomine', [true]);
    expect(await node.call('anvil_getAutomine', [])).to.equal(true);
  });
});
