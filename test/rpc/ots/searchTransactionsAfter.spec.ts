import { expect } from 'chai';
import { startOtsChain, type OtsChain } from '../../helpers/ots-chain.js';
import { SINK } from '../../helpers/transactions.js';

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_searchTransactionsAfter', () => {
  let chain: OtsChain;
  before(async () => {
    chain = await startOtsChain();
  });
  after(() => chain.node.destroy());

  it('ots_searchTransactionsAfter pages forwards and says when more are newer', async () => {
    const first = BigInt((await chain.node.call('eth_getTransactionReceipt', [chain.transfers[0]]))!.blockNumber);
    const page = (await chain.node.call('ots_searchTransactionsAfter', [SINK, Number(first - 1n), 1]))!;
    expect(page.txs.map((tx) => tx.hash)).to.deep.equal([chain.transfers[0]]);
    expect(page.firstPage).to.equal(false);
    expect(page.lastPage).to.equal(true);
  });
});
