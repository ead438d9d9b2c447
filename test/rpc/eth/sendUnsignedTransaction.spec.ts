import { expect } from 'chai';
import { freshAddress } from '../../helpers/dev-calls.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError, SINK } from '../../helpers/transactions.js';

describe('eth_sendUnsignedTransaction', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('sends from any funded address, impersonated or not, and the receipt names it', async () => {
    await node.call('anvil_setBalance', [freshAddress(1), '0xde0b6b3a7640000']);
    const hash = await node.call('eth_sendUnsignedTransaction', [{ from: freshAddress(1), to: SINK, value: '0x2a' }]);
    expect(await node.call('eth_getTransactionReceipt', [hash])).to.include({ status: '0x1', from: freshAddress(1), to: SINK });
    expect(await node.call('eth_getBalance', [SINK, 'latest'])).to.equal('0x2a');
  });

  it('gives the same transaction from two senders two hashes (the placeholder signature carries the sender)', async () => {
    const request = (from: string) => ({ from, to: SINK, gas: '0x5208', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1', nonce: '0x0' });
    await node.call('anvil_setBalance', [freshAddress(2), '0xde0b6b3a7640000']);
    await node.call('anvil_setBalance', [freshAddress(3), '0xde0b6b3a7640000']);
    const [a, b] = await Promise.all([2, 3].map((n) => node.call('eth_sendUnsignedTransaction', [request(freshAddress(n))])));
    expect(a).to.not.equal(b);
  });

  it('refuses what the sender cannot pay, in geth’s words', async () => {
    await expectRpcError(node.call('eth_sendUnsignedTransaction', [{ from: freshAddress(4), to: SINK, value: '0x1' }]), -32000, /insufficient funds/);
  });
});
