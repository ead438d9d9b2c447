import { expect } from 'chai';
import type { Hex } from 'viem';
import type { Log } from '../../../generated/types.js';
import { deployEmitter, emit, expectChainOrder, topic } from '../../helpers/emitter-node.js';
import { LOG_EMITTER_INITCODE } from '../../helpers/log-emitter.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

// eth_getFilterChanges for each kind of filter is exercised in newFilter, newBlockFilter and
// newPendingTransactionFilter.spec.ts; here: unknown ids, long gaps, and restarts.

describe('eth_getFilterChanges', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ logsMaxBlocks: 4, logsMaxResults: 3 });
  });
  after(async () => node.destroy());

  it('answers an id never issued with -32000 "filter not found"', async () => {
    await expectRpcError(node.call('eth_getFilterChanges', ['0xdeadbeef']), -32000, 'filter not found');
    await expectRpcError(node.call('eth_getFilterChanges', ['0x0']), -32000, 'filter not found');
  });

  it('answers a long gap in pieces within the eth_getLogs limits, without loss or repeat', async () => {
    const emitter = await deployEmitter(node);
    const filter = await node.call('eth_newFilter', [{ fromBlock: '0x0', address: emitter }]);
    // 6 blocks, 2 logs each: more blocks and more logs than one poll may hold.
    for (let i = 0; i < 6; i++) await emit(node, emitter, [{ topics: [topic(i)], data: 0n }, { topics: [topic(i)], data: 1n }]);
    const polled: Log[] = [];
    for (let round = 0; round < 20; round++) {
      const piece = (await node.call('eth_getFilterChanges', [filter])) as Log[];
      expect(piece.length).to.be.at.most(3);
      polled.push(...piece);
    }
    expect(polled.map((l) => [l.topics[0], l.data.slice(-1)])).to.deep.equal(
      [0, 1, 2, 3, 4, 5].flatMap((i) => [
        [topic(i), '0'],
        [topic(i), '1'],
      ]),
    );
    expectChainOrder(polled);
  });

  it('sends a block whose logs alone pass the result limit whole, rather than stall', async () => {
    const emitter = await deployEmitter(node);
    const filter = await node.call('eth_newFilter', [{ address: emitter }]);
    const tx = await emit(node, emitter, [0, 1, 2, 3, 4].map((n) => ({ topics: [topic(n)], data: 0n })));
    const logs = (await node.call('eth_getFilterChanges', [filter])) as Log[];
    expect(logs.map((l) => l.transactionHash)).to.deep.equal([tx, tx, tx, tx, tx]);
    expect(await node.call('eth_getFilterChanges', [filter])).to.deep.equal([]);
  });
});

describe('eth_getFilterChanges after a restart', () => {
  let node: TestNode;
  let dataDir: string;
  after(async () => node.destroy());

  it('answers exactly what was missed when polled after the restart', async function () {
    this.timeout(30_000);
    node = await startTestNode({ mining: false });
    dataDir = node.dataDir;
    const mined = async (hash: Promise<string>) => {
      const tx = await hash;
      await node.call('evm_mine', []);
      return tx;
    };
    const deployHash = await mined(node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], data: LOG_EMITTER_INITCODE, gas: '0x30000' }]));
    const emitter = (await node.call('eth_getTransactionReceipt', [deployHash]))!.contractAddress as Hex;

    const logFilter = await node.call('eth_newFilter', [{ address: emitter }]);
    const blockFilter = await node.call('eth_newBlockFilter', []);
    const pendingFilter = await node.call('eth_newPendingTransactionFilter', []);

    const tx1 = await mined(emit(node, emitter, [{ topics: [topic(1)], data: 1n }]));
    expect(((await node.call('eth_getFilterChanges', [logFilter])) as Log[]).map((l) => l.transactionHash)).to.deep.equal([tx1]);
    expect(await node.call('eth_getFilterChanges', [blockFilter])).to.have.length(1);
    expect(await node.call('eth_getFilterChanges', [pendingFilter])).to.deep.equal([tx1]);

    // Missed: two blocks with logs, and the transactions that went into them.
    const tx2 = await mined(emit(node, emitter, [{ topics: [topic(2)], data: 2n }, { topics: [topic(3)], data: 3n }]));
    const tx3 = await mined(emit(node, emitter, [{ topics: [topic(4)], data: 4n }]));
    const head = await node.call('eth_blockNumber', []);
    await node.stop();

    node = await startTestNode({ mining: false }, dataDir);
    expect(await node.call('eth_blockNumber', [])).to.equal(head);
    const logs = (await node.call('eth_getFilterChanges', [logFilter])) as Log[];
    expect(logs.map((l) => [l.transactionHash, l.topics[0]])).to.deep.equal([
      [tx2, topic(2)],
      [tx2, topic(3)],
      [tx3, topic(4)],
    ]);
    const blocks = (await node.call('eth_getFilterChanges', [blockFilter])) as string[];
    expect(blocks).to.deep.equal([logs[0].blockHash, logs[2].blockHash]);
    expect(await node.call('eth_getFilterChanges', [pendingFilter])).to.deep.equal([tx2, tx3]);
    for (const id of [logFilter, blockFilter, pendingFilter]) expect(await node.call('eth_getFilterChanges', [id])).to.deep.equal([]);

    // And they keep working.
    const tx4 = await mined(emit(node, emitter, [{ topics: [topic(5)], data: 5n }]));
    expect(((await node.call('eth_getFilterChanges', [logFilter])) as Log[]).map((l) => l.transactionHash)).to.deep.equal([tx4]);
    expect(await node.call('eth_uninstallFilter', [logFilter])).to.equal(true);
  });
});
