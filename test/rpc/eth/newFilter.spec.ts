import { expect } from 'chai';
import type { Hex } from 'viem';
import type { Log } from '../../../generated/types.js';
import { deployEmitter, emit, expectChainOrder, FILTER_ID, logKey, topic } from '../../helpers/emitter-node.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

describe('eth_newFilter', () => {
  let node: TestNode;
  let emitter: Hex;
  const changes = (id: string) => node.call('eth_getFilterChanges', [id]);
  const logChanges = async (id: string) => (await changes(id)) as Log[];
  const hashChanges = async (id: string) => (await changes(id)) as string[];

  before(async () => {
    node = await startTestNode();
    emitter = await deployEmitter(node);
  });
  after(async () => node.destroy());

  describe('log filters', () => {
    it('report each new matching log once, then nothing', async () => {
      const id = await node.call('eth_newFilter', [{}]);
      expect(id).to.match(FILTER_ID);
      expect(await changes(id)).to.deep.equal([]);
      const tx = await emit(node, emitter, [{ topics: [topic(1)], data: 1n }, { topics: [topic(2)], data: 2n }]);
      const logs = await logChanges(id);
      expect(logs.map((l) => [l.transactionHash, l.topics[0]])).to.deep.equal([
        [tx, topic(1)],
        [tx, topic(2)],
      ]);
      expect(logs[0].removed).to.equal(false);
      expect(await changes(id)).to.deep.equal([]);
    });

    it('report only logs matching address and topics', async () => {
      const other = await deployEmitter(node);
      const id = await node.call('eth_newFilter', [{ address: [emitter], topics: [[topic(7), topic(8)], null] }]);
      await emit(node, emitter, [{ topics: [topic(7), topic(0)], data: 1n }, { topics: [topic(7)], data: 2n }, { topics: [topic(9), topic(0)], data: 3n }]);
      await emit(node, other, [{ topics: [topic(7), topic(0)], data: 4n }]);
      await emit(node, emitter, [{ topics: [topic(8), topic(1)], data: 5n }]);
      const logs = await logChanges(id);
      expect(logs.map((l) => BigInt(l.data))).to.deep.equal([1n, 5n]);
    });

    it('report the history first when fromBlock is a past block number', async () => {
      const from = await node.call('eth_blockNumber', []);
      await emit(node, emitter, [{ topics: [topic(3)], data: 1n }]);
      const id = await node.call('eth_newFilter', [{ fromBlock: from, topics: [topic(3)] }]);
      await emit(node, emitter, [{ topics: [topic(3)], data: 2n }]);
      expect((await logChanges(id)).map((l) => BigInt(l.data))).to.deep.equal([1n, 2n]);
      expect(await changes(id)).to.deep.equal([]);
    });

    it('stop at a fixed toBlock', async () => {
      const head = BigInt(await node.call('eth_blockNumber', []));
      const id = await node.call('eth_newFilter', [{ toBlock: `0x${(head + 1n).toString(16)}`, topics: [topic(4)] }]);
      await emit(node, emitter, [{ topics: [topic(4)], data: 1n }]);
      await emit(node, emitter, [{ topics: [topic(4)], data: 2n }]);
      expect((await logChanges(id)).map((l) => BigInt(l.data))).to.deep.equal([1n]);
    });

    it('with a blockHash report that block once, and eth_getFilterLogs returns it', async () => {
      const tx = await emit(node, emitter, [{ topics: [topic(5)], data: 1n }, { topics: [topic(6)], data: 2n }]);
      const receipt = await node.call('eth_getTransactionReceipt', [tx]);
      const id = await node.call('eth_newFilter', [{ blockHash: receipt!.blockHash, topics: [topic(6)] }]);
      await emit(node, emitter, [{ topics: [topic(6)], data: 3n }]);
      const first = await logChanges(id);
      expect(first.map((l) => [l.blockHash, BigInt(l.data)])).to.deep.equal([[receipt!.blockHash, 2n]]);
      expect(await changes(id)).to.deep.equal([]);
      expect(await node.call('eth_getFilterLogs', [id])).to.deep.equal(first);
    });

    it('refuse invalid criteria', async () => {
      await expectRpcError(node.call('eth_newFilter', [{ fromBlock: '0x5', toBlock: '0x4' }]), -32602, 'invalid block range params');
      await expectRpcError(node.call('eth_newFilter', [{ topics: [null, null, null, null, null] }]), -32602, 'exceed max topics');
      await expectRpcError(node.call('eth_newFilter', [{ blockHash: `0x${'11'.repeat(32)}`, toBlock: 'latest' }]), -32602, /cannot specify both BlockHash/);
    });
  });

  describe('exactly once while blocks land', () => {
    it('reports every log and block once, in chain order, under overlapping polls', async function () {
      this.timeout(60_000);
      const start = BigInt(await node.call('eth_blockNumber', []));
      const logFilter = await node.call('eth_newFilter', [{ address: emitter }]);
      const blockFilter = await node.call('eth_newBlockFilter', []);
      const seenLogs: Log[] = [];
      const seenBlocks: string[] = [];
      let producing = true;
      const producer = (async () => {
        try {
          // Several senders at once: blocks land while polls are being answered.
          await Promise.all(
            [0, 1, 2].map(async (sender) => {
              for (let i = 0; i < 12; i++) {
                await emit(node, emitter, [1, 2, 3].map((n) => ({ topics: [topic(sender), topic(i)], data: BigInt(n) })), DEV_ADDRESSES[sender]);
              }
            }),
          );
        } finally {
          producing = false;
        }
      })();
      const poll = async () => {
        // Two polls of the same filter in flight at once must not both report the same logs.
        const [a, b] = await Promise.all([logChanges(logFilter), logChanges(logFilter)]);
        seenLogs.push(...a, ...b);
        seenBlocks.push(...(await hashChanges(blockFilter)));
      };
      while (producing) await poll();
      await producer;
      await poll();

      const expected = await node.call('eth_getLogs', [{ fromBlock: `0x${(start + 1n).toString(16)}`, address: emitter }]);
      expect(expected).to.have.length(3 * 12 * 3);
      expect(seenLogs.map(logKey)).to.deep.equal(expected.map(logKey));
      expectChainOrder(seenLogs);
      const head = BigInt(await node.call('eth_blockNumber', []));
      expect(seenBlocks).to.have.length(Number(head - start));
      expect(new Set(seenBlocks).size).to.equal(seenBlocks.length);
    });
  });
});
