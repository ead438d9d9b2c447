import { expect } from 'chai';
import { startOtsChain, type OtsChain } from '../../helpers/ots-chain.js';
import { devAddress } from '../../helpers/transactions.js';

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_hasCode', () => {
  let chain: OtsChain;
  before(async () => {
    chain = await startOtsChain();
  });
  after(() => chain.node.destroy());

  it('ots_hasCode tells a contract from an account', async () => {
    expect(await chain.node.call('ots_hasCode', [chain.contract, 'latest'])).to.equal(true);
    expect(await chain.node.call('ots_hasCode', [devAddress(0), 'latest'])).to.equal(false);
  });
});
