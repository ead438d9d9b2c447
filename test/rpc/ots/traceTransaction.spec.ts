import { expect } from 'chai';
import { startOtsChain, type OtsChain } from '../../helpers/ots-chain.js';
import { devAddress, SINK } from '../../helpers/transactions.js';

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_traceTransaction', () => {
  let chain: OtsChain;
  before(async () => {
    chain = await startOtsChain();
  });
  after(() => chain.node.destroy());

  it('ots_traceTransaction answers the call tree flattened with depths; a transfer is one CALL at depth 0', async () => {
    const entries = await chain.node.call('ots_traceTransaction', [chain.transfers[0]]);
    expect(entries).to.have.length(1);
    expect(entries[0]).to.include({ type: 'CALL', depth: 0, from: devAddress(0).toLowerCase(), to: SINK, value: '0x1' });
  });
});
