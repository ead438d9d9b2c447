import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, signTx } from '../../helpers/transactions.js';

describe('eth_maxPriorityFeePerGas', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('is a positive quantity', async () => {
    const tip = await node.call('eth_maxPriorityFeePerGas', []);
    expect(tip).to.match(/^0x[1-9a-f][0-9a-f]*$/);
  });

  it('with eth_gasPrice, splits the price into base fee and tip', async () => {
    const [price, tip, pending] = await Promise.all([
      node.call('eth_gasPrice', []),
      node.call('eth_maxPriorityFeePerGas', []),
      node.call('eth_getBlockByNumber', ['pending', false]),
    ]);
    expect(BigInt(price) - BigInt(tip)).to.equal(BigInt(pending!.baseFeePerGas!));
  });

  it('a transaction with that tip and a fee cap of twice the base fee plus the tip pays base fee + tip', async () => {
    const tip = BigInt(await node.call('eth_maxPriorityFeePerGas', []));
    const baseFee = BigInt((await node.call('eth_getBlockByNumber', ['pending', false]))!.baseFeePerGas!);
    const hash = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(0), nonce: 0, maxFeePerGas: 2n * baseFee + tip, maxPriorityFeePerGas: tip })]);
    const receipt = (await node.call('eth_getTransactionReceipt', [hash]))!;
    const block = (await node.call('eth_getBlockByHash', [receipt.blockHash, false]))!;
    expect(BigInt(receipt.effectiveGasPrice)).to.equal(BigInt(block.baseFeePerGas!) + tip);
  });
});
