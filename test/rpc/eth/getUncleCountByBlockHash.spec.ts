import { expect } from 'chai';
import { uncleFixture } from '../../helpers/pow-chain.js';

describe('eth_getUncleCountByBlockHash', () => {
  const f = uncleFixture();

  it('counts the uncles a block names', async () => {
    expect(f.block3.uncles).to.have.length(1);
    expect(await f.pow.node.call('eth_getUncleCountByBlockHash', [f.block3.hash])).to.equal('0x1');
  });

  it('counts none for a block after the merge', async () => {
    const head = (await f.dev.call('eth_getBlockByNumber', ['latest', false]))!;
    expect(await f.dev.call('eth_getUncleCountByBlockHash', [head.hash])).to.equal('0x0');
  });

  it('answers null for a hash the chain does not hold', async () => {
    expect(await f.pow.node.call('eth_getUncleCountByBlockHash', [`0x${'cd'.repeat(32)}`])).to.equal(null);
  });
});
