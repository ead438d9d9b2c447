import { expect } from 'chai';
import { startOtsChain, type OtsChain } from '../../helpers/ots-chain.js';

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_getTransactionError', () => {
  let chain: OtsChain;
  before(async () => {
    chain = await startOtsChain();
  });
  after(() => chain.node.destroy());

  it('ots_getTransactionError answers 0x for a transaction that succeeded', async () => {
    expect(await chain.node.call('ots_getTransactionError', [chain.transfers[0]])).to.equal('0x');
  });
});
