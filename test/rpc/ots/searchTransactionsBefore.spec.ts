import { expect } from 'chai';
import { startOtsChain, type OtsChain } from '../../helpers/ots-chain.js';
import { SINK } from '../../helpers/transactions.js';

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_searchTransactionsBefore', () => {
  let chain: OtsChain;
  before(async () => {
    chain = await startOtsChain();
  });
  after(() => chain.node.destroy());

  it('ots_searchTransactionsBefore answers an address’s transactions newest first, the whole history on one page', async () => {
    const page = (await chain.node.call('ots_searchTransactionsBefore', [SINK, 0, 25]))!;
    expect(page.txs.map((tx) => tx.hash)).to.deep.equal([...chain.transfers].reverse());
    expect(page.receipts.map((r) => r.transactionHash)).to.deep.equal([...chain.transfers].reverse());
    expect(page.firstPage).to.equal(true);
    expect(page.lastPage).to.equal(true);
  });
});
