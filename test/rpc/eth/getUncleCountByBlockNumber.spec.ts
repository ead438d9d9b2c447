import { expect } from 'chai';
import { uncleFixture } from '../../helpers/pow-chain.js';

describe('eth_getUncleCountByBlockNumber', () => {
  const f = uncleFixture();

  it('counts the uncles a block names, and none for a block that names none', async () => {
    expect(f.block3.uncles).to.have.length(1);
    expect(await f.pow.node.call('eth_getUncleCountByBlockNumber', ['0x3'])).to.equal('0x1');
    expect(await f.pow.node.call('eth_getUncleCountByBlockNumber', ['0x5'])).to.equal('0x0');
  });

  it('counts none for the dev chain’s latest block, which comes after the merge', async () => {
    expect(await f.dev.call('eth_getUncleCountByBlockNumber', ['latest'])).to.equal('0x0');
  });

  it('answers null for a block above the head', async () => {
    expect(await f.pow.node.call('eth_getUncleCountByBlockNumber', ['0x99'])).to.equal(null);
  });
});
