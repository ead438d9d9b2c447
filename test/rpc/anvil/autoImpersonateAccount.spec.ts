import { expect } from 'chai';
import { freshAddress } from '../../helpers/dev-calls.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError, SINK } from '../../helpers/transactions.js';

describe('anvil_autoImpersonateAccount', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('on, eth_sendTransaction takes any sender; answers null', async () => {
    expect(await node.call('anvil_autoImpersonateAccount', [true])).to.equal(null);
    for (const n of [1, 2]) {
      await node.call('anvil_setBalance', [freshAddress(n), '0xde0b6b3a7640000']);
      const hash = await node.call('eth_sendTransaction', [{ from: freshAddress(n), to: SINK }]);
      expect((await node.call('eth_getTransactionReceipt', [hash]))?.from).to.equal(freshAddress(n));
    }
  });

  it('off again, only addresses impersonated one by one send', async () => {
    await node.call('anvil_autoImpersonateAccount', [true]);
    await node.call('anvil_impersonateAccount', [freshAddress(1)]);
    await node.call('anvil_autoImpersonateAccount', [false]);
    await node.call('anvil_setBalance', [freshAddress(1), '0xde0b6b3a7640000']);
    await node.call('eth_sendTransaction', [{ from: freshAddress(1), to: SINK }]);
    await expectRpcError(node.call('eth_sendTransaction', [{ from: freshAddress(2), to: SINK }]), -32000, /unknown account/);
  });
});
