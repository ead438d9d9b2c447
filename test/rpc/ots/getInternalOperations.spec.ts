import { expect } from 'chai';
import { startOtsChain, type OtsChain } from '../../helpers/ots-chain.js';

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_getInternalOperations', () => {
  let chain: OtsChain;
  before(async () => {
    chain = await startOtsChain();
  });
  after(() => chain.node.destroy());

  it('ots_getInternalOperations answers none for a transfer or a deployment: the transaction itself is not one', async () => {
    expect(await chain.node.call('ots_getInternalOperations', [chain.transfers[0]])).to.deep.equal([]);
    const creation = (await chain.node.call('ots_getContractCreator', [chain.contract]))!;
    expect(await chain.node.call('ots_getInternalOperations', [creation.hash])).to.deep.equal([]);
  });
});
