import { expect } from 'chai';
import { startOtsChain, type OtsChain } from '../../helpers/ots-chain.js';

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_getBlockTransactions', () => {
  let chain: OtsChain;
  before(async () => {
    chain = await startOtsChain();
  });
  after(() => chain.node.destroy());

  it('ots_getBlockTransactions answers a page with inputs cut to their selector and receipts without logs', async () => {
    const page = (await chain.node.call('ots_getBlockTransactions', [chain.transferBlock, 0, 25]))!;
    expect(page.fullblock.transactions).to.have.length(1);
    expect(page.fullblock.transactions[0]!.input).to.equal('0xdeadbeef');
    expect(page.receipts[0]!.logs).to.equal(null);
    expect(page.receipts[0]!.transactionHash).to.equal(chain.transfers[2]);
  });
});
