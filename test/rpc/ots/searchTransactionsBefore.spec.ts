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

  it('ots_searchTransactionsBefore pages backwards a block at a time, saying which page is the first and which the last', async () => {
    const blockOf = async (hash: string) => Number((await chain.node.call('eth_getTransactionReceipt', [hash as `0x${string}`]))!.blockNumber);
    const newest = (await chain.node.call('ots_searchTransactionsBefore', [SINK, 0, 1]))!;
    expect(newest.txs.map((tx) => tx.hash)).to.deep.equal([chain.transfers[2]]);
    expect([newest.firstPage, newest.lastPage]).to.deep.equal([true, false]);
    const middle = (await chain.node.call('ots_searchTransactionsBefore', [SINK, await blockOf(chain.transfers[2]), 1]))!;
    expect(middle.txs.map((tx) => tx.hash)).to.deep.equal([chain.transfers[1]]);
    expect([middle.firstPage, middle.lastPage]).to.deep.equal([false, false]);
    const oldest = (await chain.node.call('ots_searchTransactionsBefore', [SINK, await blockOf(chain.transfers[1]), 1]))!;
    expect(oldest.txs.map((tx) => tx.hash)).to.deep.equal([chain.transfers[0]]);
    expect([oldest.firstPage, oldest.lastPage]).to.deep.equal([false, true]);
  });
});
