import { expect } from 'chai';
import type { Hex } from 'viem';
import type { Log } from '../../../generated/types.js';
import { deployEmitter, emit, topic } from '../../helpers/emitter-node.js';
import { LOG_EMITTER_INITCODE } from '../../helpers/log-emitter.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

const key = (log: Log) => `${BigInt(log.blockNumber)}:${BigInt(log.logIndex)}`;
const sortKey = (log: Log) => [BigInt(log.blockNumber), BigInt(log.logIndex)] as const;
const FILTER_ID = /^0x[0-9a-f]{1,32}$/;

/** Logs polled from a filter must come in chain order: block, then position. */
function expectChainOrder(logs: Log[]): void {
  for (let i = 1; i < logs.length; i++) {
    const [b0, i0] = sortKey(logs[i - 1]);
    const [b1, i1] = sortKey(logs[i]);
    expect(b1 > b0 || (b1 === b0 && i1 > i0), `log ${key(logs[i])} after ${key(logs[i - 1])}`).to.equal(true);
  }
}

describe('filters: eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter, eth_getFilterChanges', function () {
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

    it('eth_getFilterLogs answers all matching logs of the range, as eth_getLogs does', async () => {
      const id = await node.call('eth_newFilter', [{ fromBlock: 'earliest', address: emitter }]);
      const all = await node.call('eth_getFilterLogs', [id]);
      expect(all).to.deep.equal(await node.call('eth_getLogs', [{ fromBlock: 'earliest', address: emitter }]));
      expect(all.length).to.be.greaterThan(5);
    });

    it('eth_getFilterLogs refuses block and pending-transaction filters', async () => {
      await expectRpcError(node.call('eth_getFilterLogs', [await node.call('eth_newBlockFilter', [])]), -32000, 'filter not found');
      await expectRpcError(node.call('eth_getFilterLogs', [await node.call('eth_newPendingTransactionFilter', [])]), -32000, 'filter not found');
    });

    it('refuse invalid criteria', async () => {
      await expectRpcError(node.call('eth_newFilter', [{ fromBlock: '0x5', toBlock: '0x4' }]), -32602, 'invalid block range params');
      await expectRpcError(node.call('eth_newFilter', [{ topics: [null, null, null, null, null] }]), -32602, 'exceed max topics');
      await expectRpcError(node.call('eth_newFilter', [{ blockHash: `0x${'11'.repeat(32)}`, toBlock: 'latest' }]), -32602, /cannot specify both BlockHash/);
    });
  });

  describe('block filters', () => {
    it('report the hash of every new block in order', async () => {
      const id = await node.call('eth_newBlockFilter', []);
      expect(id).to.match(FILTER_ID);
      const start = BigInt(await node.call('eth_blockNumber', []));
      for (let i = 0; i < 3; i++) await node.call('evm_mine', []);
      const hashes = await hashChanges(id);
      const expected: string[] = [];
      for (let n = start + 1n; n <= start + 3n; n++) expected.push((await node.call('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]))!.hash);
      expect(hashes).to.deep.equal(expected);
      expect(await changes(id)).to.deep.equal([]);
    });
  });

  describe('pending-transaction filters', () => {
    it('report the hash of each transaction admitted to the pool', async () => {
      const id = await node.call('eth_newPendingTransactionFilter', []);
      expect(id).to.match(FILTER_ID);
      await node.call('evm_setAutomine', [false]);
      try {
        const a = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: DEV_ADDRESSES[2], value: '0x1' }]);
        const b = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[2], to: DEV_ADDRESSES[1], value: '0x1' }]);
        expect(await hashChanges(id)).to.deep.equal([a, b]);
        expect(await changes(id)).to.deep.equal([]);
      } finally {
        await node.call('evm_setAutomine', [true]);
      }
    });
  });

  describe('eth_uninstallFilter and unknown ids', () => {
    it('answers true once, then false; the id is then unknown', async () => {
      for (const id of [await node.call('eth_newFilter', [{}]), await node.call('eth_newBlockFilter', []), await node.call('eth_newPendingTransactionFilter', [])]) {
        expect(await node.call('eth_uninstallFilter', [id])).to.equal(true);
        expect(await node.call('eth_uninstallFilter', [id])).to.equal(false);
        await expectRpcError(changes(id), -32000, 'filter not found');
      }
    });

    it('answers an id never issued with -32000 "filter not found"', async () => {
      await expectRpcError(changes('0xdeadbeef'), -32000, 'filter not found');
      await expectRpcError(node.call('eth_getFilterLogs', ['0xdeadbeef']), -32000, 'filter not found');
      expect(await node.call('eth_uninstallFilter', ['0xdeadbeef'])).to.equal(false);
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
      expect(seenLogs.map(key)).to.deep.equal(expected.map(key));
      expectChainOrder(seenLogs);
      const head = BigInt(await node.call('eth_blockNumber', []));
      expect(seenBlocks).to.have.length(Number(head - start));
      expect(new Set(seenBlocks).size).to.equal(seenBlocks.length);
    });
  });
});

describe('filters: limits', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ maxFilters: 2, logsMaxBlocks: 4, logsMaxResults: 3 });
  });
  after(async () => node.destroy());

  it('refuses more filters than --max-filters, with a hint', async () => {
    const first = await node.call('eth_newBlockFilter', []);
    const second = await node.call('eth_newFilter', [{}]);
    await expectRpcError(node.call('eth_newPendingTransactionFilter', []), -32005, /too many filters: the limit is 2.*eth_uninstallFilter/);
    await node.call('eth_uninstallFilter', [first]);
    const third = await node.call('eth_newPendingTransactionFilter', []);
    for (const id of [second, third]) await node.call('eth_uninstallFilter', [id]);
  });

  it('answers a long gap in pieces within the getLogs limits, without loss', async () => {
    const emitter = await deployEmitter(node);
    const filter = await node.call('eth_newFilter', [{ fromBlock: '0x0', address: emitter }]);
    // 6 blocks, 2 logs each: more blocks and more logs than one poll may hold.
    for (let i = 0; i < 6; i++) await emit(node, emitter, [{ topics: [topic(i)], data: 0n }, { topics: [topic(i)], data: 1n }]);
    const polled: Log[] = [];
    for (let round = 0; round < 20; round++) polled.push(...((await node.call('eth_getFilterChanges', [filter])) as Log[]));
    expect(polled).to.have.length(12);
    expectChainOrder(polled);
  });
});

describe('filters: persistence across a restart', () => {
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
