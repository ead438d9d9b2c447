import { expect } from 'chai';
import type { Hex } from 'viem';
import { uncleFixture } from '../../helpers/pow-chain.js';

type Block = { hash: Hex; number: Hex; parentHash: Hex; difficulty: Hex; totalDifficulty: Hex; uncles: Hex[]; sha3Uncles: Hex; transactions: unknown[] };

describe('eth_getUncleByBlockHashAndIndex', () => {
  const f = uncleFixture();

  it('answers an uncle as a block of its header alone: the hash its block names, no transactions, no uncles', async () => {
    const uncle = (await f.pow.node.call('eth_getUncleByBlockHashAndIndex', [f.block3.hash, '0x0'])) as unknown as Block;
    expect(uncle.hash).to.equal(f.block3.uncles[0]);
    expect(uncle.transactions).to.deep.equal([]);
    expect(uncle.uncles).to.deep.equal([]);
  });

  it('gives an uncle the total difficulty of its parent plus its own difficulty', async () => {
    const uncle = (await f.pow.node.call('eth_getUncleByBlockHashAndIndex', [f.block3.hash, '0x0'])) as unknown as Block;
    const parent = (await f.pow.node.call('eth_getBlockByHash', [uncle.parentHash, false])) as unknown as Block;
    expect(BigInt(uncle.totalDifficulty)).to.equal(BigInt(parent.totalDifficulty) + BigInt(uncle.difficulty));
  });

  it('answers null past a block’s uncles and for a hash the chain does not hold', async () => {
    expect(await f.pow.node.call('eth_getUncleByBlockHashAndIndex', [f.block3.hash, '0x1'])).to.equal(null);
    expect(await f.pow.node.call('eth_getUncleByBlockHashAndIndex', [`0x${'cd'.repeat(32)}`, '0x0'])).to.equal(null);
  });
});
