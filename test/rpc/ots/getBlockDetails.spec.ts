import { expect } from 'chai';
import { startOtsChain, type OtsChain } from '../../helpers/ots-chain.js';

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_getBlockDetails', () => {
  let chain: OtsChain;
  before(async () => {
    chain = await startOtsChain();
  });
  after(() => chain.node.destroy());

  it('ots_getBlockDetails answers the block without its transactions, with their count and fees', async () => {
    const details = (await chain.node.call('ots_getBlockDetails', [chain.transferBlock]))!;
    const receipt = (await chain.node.call('eth_getTransactionReceipt', [chain.transfers[2]]))!;
    expect(details.block.transactionCount).to.equal(1);
    expect(details.block.logsBloom).to.equal(null);
    expect(details.block).to.not.have.property('transactions');
    expect(BigInt(details.totalFees)).to.equal(BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice));
  });

  it('ots_getBlockDetails answers null past the head', async () => {
    expect(await chain.node.call('ots_getBlockDetails', [0xffff])).to.equal(null);
  });
});
