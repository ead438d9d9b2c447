import { expect } from 'chai';
import type { Block, Transaction } from '../../../generated/types.js';
import { deployStorageContract, transfer } from '../../helpers/activity.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

describe('eth_getBlockByNumber', () => {
  let node: TestNode;
  let genesis: Block;
  let transferBlock: Block;
  let transferTx: string;
  let head: Block;

  before(async () => {
    node = await startTestNode();
    genesis = (await node.call('eth_getBlockByNumber', ['0x0', false]))!;
    const receipt = await transfer(node, DEV_ADDRESSES[1], 10n ** 18n);
    transferTx = receipt.transactionHash;
    transferBlock = (await node.call('eth_getBlockByNumber', [receipt.blockNumber, false]))!;
    await deployStorageContract(node);
    head = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
  });
  after(() => node.destroy());

  it('answers the head for latest', async () => {
    expect(head.number).to.equal('0x2');
    expect(head.number).to.equal(await node.call('eth_blockNumber', []));
  });

  it('answers the genesis block for earliest', async () => {
    const block = await node.call('eth_getBlockByNumber', ['earliest', false]);
    expect(block).to.deep.equal(genesis);
    expect(genesis).to.include({ number: '0x0', parentHash: `0x${'00'.repeat(32)}` });
    expect(genesis.transactions).to.deep.equal([]);
  });

  it('answers the head for safe and for finalized, since a dev chain finalises at once', async () => {
    expect(await node.call('eth_getBlockByNumber', ['safe', false])).to.deep.equal(head);
    expect(await node.call('eth_getBlockByNumber', ['finalized', false])).to.deep.equal(head);
  });

  it('answers the block the node would mine next for pending, on top of the head', async () => {
    const pending = (await node.call('eth_getBlockByNumber', ['pending', false]))!;
    expect(pending.number).to.equal('0x3');
    expect(pending.parentHash).to.equal(head.hash);
  });

  it('answers the block with a given hex number', async () => {
    const block = (await node.call('eth_getBlockByNumber', ['0x1', false]))!;
    expect(block).to.deep.equal(transferBlock);
    expect(block.number).to.equal('0x1');
    expect(block.parentHash).to.equal(genesis.hash);
  });

  it('answers null for a number past the head', async () => {
    expect(await node.call('eth_getBlockByNumber', ['0x3e8', false])).to.equal(null);
    expect(await node.call('eth_getBlockByNumber', ['0x3', true])).to.equal(null);
  });

  it('lists transaction hashes when the details flag is false', async () => {
    expect(transferBlock.transactions).to.deep.equal([transferTx]);
  });

  it('lists full transaction objects, sender included, when the details flag is true', async () => {
    const block = (await node.call('eth_getBlockByNumber', ['0x1', true]))!;
    const [tx] = block.transactions as Transaction[];
    expect(tx).to.include({
      hash: transferTx,
      from: DEV_ADDRESSES[0],
      to: DEV_ADDRESSES[1],
      value: '0xde0b6b3a7640000',
      blockHash: block.hash,
      blockNumber: '0x1',
      transactionIndex: '0x0',
      nonce: '0x0',
    });
    expect(await node.call('eth_getTransactionByHash', [transferTx])).to.deep.equal(tx);
  });

  it('differs between the two detail levels only in its transactions', async () => {
    const { transactions: full, ...fullRest } = (await node.call('eth_getBlockByNumber', ['0x1', true]))!;
    const { transactions: hashes, ...hashRest } = transferBlock;
    expect(fullRest).to.deep.equal(hashRest);
    expect((full as Transaction[]).map((tx) => tx.hash)).to.deep.equal(hashes);
  });

  it('answers blocks that chain up by parentHash from the head to the genesis', async () => {
    let block = head;
    for (let n = Number(head.number); n > 0; n--) {
      const parent = (await node.call('eth_getBlockByNumber', [`0x${(n - 1).toString(16)}`, false]))!;
      expect(block.parentHash, `parent of block ${n}`).to.equal(parent.hash);
      block = parent;
    }
    expect(block.hash).to.equal(genesis.hash);
  });

  it('refuses a block number that does not fit 64 bits with -32602', async () => {
    await expectRpcError(node.call('eth_getBlockByNumber', ['0x10000000000000000', false]), -32602, /blockNumber/);
  });
});
