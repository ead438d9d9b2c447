import { expect } from 'chai';
import { startOtsChain, type OtsChain } from '../../helpers/ots-chain.js';

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_getApiLevel', () => {
  let chain: OtsChain;
  before(async () => {
    chain = await startOtsChain();
  });
  after(() => chain.node.destroy());

it('ots_getApiLevel answers 8, the level Otterscan requires', async () => {
    expect(await chain.node.call('ots_getApiLevel', [])).to.equal(8);
  });
});
