import { expect } from 'chai';
import type { Block, Transaction } from '../../../generated/types.js';
import { transfer } from '../../helpers/activity.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_getBlockByHash', () => {
  let node: TestNode;
  let block: Block;
  let txHash: string;

  before(async () => {
    node = await startTestNode();
    const receipt = await transfer(node, DEV_ADDRESSES[2], 5n);
    txHash = receipt.transactionHash;
    block = (await node.call('eth_getBlockByNumber', [receipt.blockNumber, false]))!;
  });
  after(() => node.destroy());

  it('answers the same block as eth_getBlockByNumber for its hash', async () => {
    expect(await node.call('eth_getBlockByHash', [block.hash, false])).to.deep.equal(block);
  });

  it('answers the genesis block for the genesis hash', async () => {
    const genesis = (await node.call('eth_getBlockByNumber', ['earliest', false]))!;
    expect(await node.call('eth_getBlockByHash', [genesis.hash, false])).to.deep.equal(genesis);
  });

  it('accepts the hash in upper-case hex', async () => {
    const upper = `0x${block.hash.slice(2).toUpperCase()}`;
    expect(await node.call('eth_getBlockByHash', [upper, false])).to.deep.equal(block);
  });

  it('answers null for a hash the chain does not hold', async () => {
    expect(await node.call('eth_getBlockByHash', [`0x${'ab'.repeat(32)}`, false])).to.equal(null);
    expect(await node.call('eth_getBlockByHash', [`0x${'ab'.repeat(32)}`, true])).to.equal(null);
  });

  it('lists transaction hashes when the details flag is false', async () => {
    expect(block.transactions).to.deep.equal([txHash]);
  });

  it('lists full transaction objects, sender included, when the details flag is true', async () => {
    const full = (await node.call('eth_getBlockByHash', [block.hash, true]))!;
    const txs = full.transactions as Transaction[];
    expect(txs).to.have.length(1);
    expect(txs[0]).to.include({ hash: txHash, from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[2], value: '0x5', blockHash: block.hash });
  });
});
