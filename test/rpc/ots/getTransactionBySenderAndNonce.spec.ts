import { expect } from 'chai';
import { startOtsChain, type OtsChain } from '../../helpers/ots-chain.js';
import { devAddress } from '../../helpers/transactions.js';

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_getTransactionBySenderAndNonce', () => {
  let chain: OtsChain;
  before(async () => {
    chain = await startOtsChain();
  });
  after(() => chain.node.destroy());

  it('ots_getTransactionBySenderAndNonce finds a sender’s transaction by its nonce, null past it', async () => {
    const tx = (await chain.node.call('eth_getTransactionByHash', [chain.transfers[1]]))!;
    expect(await chain.node.call('ots_getTransactionBySenderAndNonce', [devAddress(0), Number(tx.nonce)])).to.equal(chain.transfers[1]);
    expect(await chain.node.call('ots_getTransactionBySenderAndNonce', [devAddress(0), 0xffff])).to.equal(null);
  });

  it('ots_getTransactionBySenderAndNonce finds each of a sender’s transactions, the first and the last', async () => {
    for (const hash of [chain.transfers[0], chain.transfers[2]]) {
      const tx = (await chain.node.call('eth_getTransactionByHash', [hash]))!;
      expect(await chain.node.call('ots_getTransactionBySenderAndNonce', [devAddress(0), Number(tx.nonce)])).to.equal(hash);
    }
    expect(await chain.node.call('ots_getTransactionBySenderAndNonce', [devAddress(5), 0])).to.equal(null);
  });
});
