import { expect } from 'chai';
import type { Hex } from 'viem';
import { deployEmitter, emit, topic } from '../../helpers/emitter-node.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

describe('eth_getFilterLogs', () => {
  let node: TestNode;
  let emitter: Hex;

  before(async () => {
    node = await startTestNode({ logsMaxResults: 5 });
    emitter = await deployEmitter(node);
    for (let i = 0; i < 3; i++) await emit(node, emitter, [{ topics: [topic(i)], data: 1n }, { topics: [topic(i)], data: 2n }]);
  });
  after(async () => node.destroy());

  it('answers all matching logs of the range, as eth_getLogs does, again and again', async () => {
    const id = await node.call('eth_newFilter', [{ fromBlock: 'earliest', address: emitter, topics: [[topic(0), topic(2)]] }]);
    const all = await node.call('eth_getFilterLogs', [id]);
    expect(all).to.deep.equal(await node.call('eth_getLogs', [{ fromBlock: 'earliest', address: emitter, topics: [[topic(0), topic(2)]] }]));
    expect(all).to.have.length(4);
    expect(await node.call('eth_getFilterLogs', [id])).to.deep.equal(all);
    // Polling changes does not consume what eth_getFilterLogs answers.
    expect(await node.call('eth_getFilterChanges', [id])).to.have.length(4);
    expect(await node.call('eth_getFilterLogs', [id])).to.deep.equal(all);
  });

  it('follows latest: a filter on the latest block answers the newest block', async () => {
    const id = await node.call('eth_newFilter', [{}]);
    const tx = await emit(node, emitter, [{ topics: [topic(9)], data: 9n }]);
    expect((await node.call('eth_getFilterLogs', [id])).map((l) => l.transactionHash)).to.deep.equal([tx]);
  });

  it('answers the logs of the block a blockHash filter names', async () => {
    const tx = await emit(node, emitter, [{ topics: [topic(7)], data: 7n }]);
    const receipt = await node.call('eth_getTransactionReceipt', [tx]);
    const id = await node.call('eth_newFilter', [{ blockHash: receipt!.blockHash }]);
    expect((await node.call('eth_getFilterLogs', [id])).map((l) => l.transactionHash)).to.deep.equal([tx]);
  });

  it('keeps the eth_getLogs result limit', async () => {
    const id = await node.call('eth_newFilter', [{ fromBlock: 'earliest' }]);
    await expectRpcError(node.call('eth_getFilterLogs', [id]), -32005, /more than 5 results/);
  });

  it('refuses block and pending-transaction filters, and unknown ids', async () => {
    await expectRpcError(node.call('eth_getFilterLogs', [await node.call('eth_newBlockFilter', [])]), -32000, 'filter not found');
    await expectRpcError(node.call('eth_getFilterLogs', [await node.call('eth_newPendingTransactionFilter', [])]), -32000, 'filter not found');
    await expectRpcError(node.call('eth_getFilterLogs', ['0xdeadbeef']), -32000, 'filter not found');
  });
});
