import { expect } from 'chai';
import { encodeFunctionData, type Abi } from 'viem';
import { contracts, deployContract } from '../../helpers/contracts.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, signTx, txHash } from '../../helpers/transactions.js';

describe('eth_getBlockReceipts', () => {
  let node: TestNode;
  let block: { hash: string; number: string };
  const hashes: string[] = [];

  before(async () => {
    node = await startTestNode({ mining: false });
    const emitter = await deployContract(node, 'Emitter', [], devKey(9));
    const data = encodeFunctionData({ abi: contracts().Emitter.abi as unknown as Abi, functionName: 'emitMany', args: [2n] });
    const raws = [
      await signTx({ key: devKey(0), nonce: 0, to: emitter, value: 0n, gas: 200_000n, data }),
      await signTx({ key: devKey(1), nonce: 0 }),
      await signTx({ key: devKey(0), nonce: 1, to: emitter, value: 0n, gas: 200_000n, data }),
    ];
    for (const raw of raws) {
      await node.call('eth_sendRawTransaction', [raw]);
      hashes.push(txHash(raw));
    }
    await node.call('evm_mine', []);
    block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
  });
  after(() => node.destroy());

  it('every receipt of the block, in order, each equal to eth_getTransactionReceipt', async () => {
    const receipts = (await node.call('eth_getBlockReceipts', [block.number]))!;
    expect(receipts.map((r) => r.transactionHash)).to.deep.equal((await node.call('eth_getBlockByNumber', [block.number, false]))!.transactions);
    for (const r of receipts) expect(r).to.deep.equal(await node.call('eth_getTransactionReceipt', [r.transactionHash]));
  });

  it('log indexes run across the block', async () => {
    const receipts = (await node.call('eth_getBlockReceipts', [block.number]))!;
    expect(receipts.flatMap((r) => r.logs.map((l) => l.logIndex))).to.deep.equal(['0x0', '0x1', '0x2', '0x3']);
  });

  it('takes a block hash and the latest tag', async () => {
    const byNumber = await node.call('eth_getBlockReceipts', [block.number]);
    expect(await node.call('eth_getBlockReceipts', [block.hash])).to.deep.equal(byNumber);
    expect(await node.call('eth_getBlockReceipts', ['latest'])).to.deep.equal(byNumber);
  });

  it('a block of more transactions than one read takes (300): every receipt, in order', async () => {
    const many: string[] = [];
    for (let nonce = 0; nonce < 300; nonce++) {
      const raw = await signTx({ key: devKey(2 + (nonce % 6)), nonce: Math.floor(nonce / 6) });
      await node.call('eth_sendRawTransaction', [raw]);
      many.push(txHash(raw));
    }
    await node.call('evm_mine', []);
    const receipts = (await node.call('eth_getBlockReceipts', ['latest']))!;
    expect(receipts.map((receipt) => receipt.transactionHash)).to.deep.equal((await node.call('eth_getBlockByNumber', ['latest', false]))!.transactions);
    expect([...receipts.map((receipt) => receipt.transactionHash)].sort()).to.deep.equal([...many].sort());
    expect(receipts.map((receipt) => receipt.transactionIndex)).to.deep.equal(many.map((_hash, i) => `0x${i.toString(16)}`));
  });

  it('a block without transactions: []', async () => {
    expect(await node.call('eth_getBlockReceipts', ['earliest'])).to.deep.equal([]);
  });

  it('the pending block: the receipts of what the next block would hold, as they ran in it, and the same once it is mined', async () => {
    const raws = [await signTx({ key: devKey(10), nonce: 0 }), await signTx({ key: devKey(11), nonce: 0 })];
    for (const raw of raws) await node.call('eth_sendRawTransaction', [raw]);
    const pending = (await node.call('eth_getBlockByNumber', ['pending', false]))!;
    const receipts = (await node.call('eth_getBlockReceipts', ['pending']))!;
    expect(receipts.map((receipt) => receipt.transactionHash)).to.deep.equal(pending.transactions);
    expect(receipts.map((receipt) => receipt.blockHash)).to.deep.equal([pending.hash, pending.hash]);
    expect(receipts.map((receipt) => receipt.cumulativeGasUsed)).to.deep.equal(['0x5208', '0xa410']);
    await node.call('evm_mine', []);
    const mined = (await node.call('eth_getBlockReceipts', ['latest']))!;
    const facts = (list: typeof receipts) => list.map(({ transactionHash, gasUsed, cumulativeGasUsed, status, logs }) => ({ transactionHash, gasUsed, cumulativeGasUsed, status, logs: logs.length }));
    expect(facts(mined)).to.deep.equal(facts(receipts));
  });

  it('a block the chain does not have: null', async () => {
    expect(await node.call('eth_getBlockReceipts', ['0x1000'])).to.equal(null);
  });
});
