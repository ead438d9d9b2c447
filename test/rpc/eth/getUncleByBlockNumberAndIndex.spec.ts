import { expect } from 'chai';
import type { Hex } from 'viem';
import { uncleFixture } from '../../helpers/pow-chain.js';

type Block = { hash: Hex; number: Hex; parentHash: Hex; difficulty: Hex; totalDifficulty: Hex; uncles: Hex[]; sha3Uncles: Hex; transactions: unknown[] };

describe('eth_getUncleByBlockNumberAndIndex', () => {
  const f = uncleFixture();

  it('answers the uncle eth_getUncleByBlockHashAndIndex answers for the same block', async () => {
    const uncle = (await f.pow.node.call('eth_getUncleByBlockNumberAndIndex', ['0x3', '0x0'])) as unknown as Block;
    expect(uncle.hash).to.equal(f.block3.uncles[0]);
    expect(uncle).to.deep.equal(await f.pow.node.call('eth_getUncleByBlockHashAndIndex', [f.block3.hash, '0x0']));
  });

  it('answers null on the dev chain, whose blocks come after the merge', async () => {
    expect(await f.dev.call('eth_getUncleByBlockNumberAndIndex', ['latest', '0x0'])).to.equal(null);
  });

  it('answers null for a block above the head', async () => {
    expect(await f.pow.node.call('eth_getUncleByBlockNumberAndIndex', ['0x99', '0x0'])).to.equal(null);
  });
});
