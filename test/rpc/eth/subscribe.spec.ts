import { expect } from 'chai';
import type { Hex } from 'viem';
import WebSocket from 'ws';
import type { BlockHeader, Log } from '../../../generated/types.js';
import { deployEmitter, emit, topic } from '../../helpers/emitter-node.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { rpc } from '../../helpers/rpc.js';
import { expectRpcError } from '../../helpers/transactions.js';
import { sleep, until } from '../../helpers/wait.js';
import { WsRpc, wsUrl } from '../../helpers/ws-rpc.js';

const SUB_ID = /^0x[0-9a-f]{1,32}$/;

describe('eth_subscribe (WebSocket)', function () {
  let node: TestNode;
  let emitter: Hex;
  let ws: WsRpc;

  before(async () => {
    node = await startTestNode();
    emitter = await deployEmitter(node);
  });
  beforeEach(async () => {
    ws = await WsRpc.connect(node.url);
  });
  afterEach(async () => {
    expect(ws.early, 'notifications ahead of their eth_subscribe reply').to.deep.equal([]);
    await ws.close();
  });
  after(async () => node.destroy());

  describe('the transport', () => {
    it('answers requests in the order they came, even when a later one is quicker', async () => {
      const socket = new WebSocket(wsUrl(node.url));
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const order: number[] = [];
      const done = new Promise<void>((resolve) =>
        socket.on('message', (data) => {
          order.push((JSON.parse(data.toString()) as { id: number }).id);
          if (order.length === 40) resolve();
        }),
      );
      for (let id = 1; id <= 40; id++) {
        const slow = id % 2 === 1;
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, method: slow ? 'eth_getProof' : 'eth_chainId', params: slow ? [emitter, ['0x0', '0x1'], 'latest'] : [] }));
      }
      await done;
      socket.close();
      expect(order).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
    });

    it('serves ordinary calls and batches on the same port', async () => {
      expect(await ws.call('eth_chainId', [])).to.equal('0x7a69');
      const batch = (await ws.raw(JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'no_such_method', params: [] },
      ]))) as { id: number; result?: string; error?: { code: number } }[];
      expect(batch.map((r) => [r.id, r.result ?? r.error?.code])).to.deep.equal([
        [1, '0x7a69'],
        [2, -32601],
      ]);
      expect(await ws.raw('{not json')).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    });

    it('refuses an upgrade from a foreign origin, and on other paths', async () => {
      for (const [url, options] of [
        [wsUrl(node.url), { origin: 'https://evil.example' }],
        [`${wsUrl(node.url)}/other`, {}],
      ] as const) {
        const socket = new WebSocket(url, options);
        const status = await new Promise<number | undefined>((resolve) => {
          socket.once('unexpected-response', (_req, res) => resolve(res.statusCode));
          socket.once('open', () => resolve(undefined));
          socket.once('error', () => resolve(undefined));
        });
        socket.terminate();
        expect(status, url).to.be.oneOf([403, 404]);
      }
    });

    it('answers eth_subscribe over HTTP with -32601 "notifications not supported"', async () => {
      await expectRpcError(rpc(node.url, 'eth_subscribe', ['newHeads']), -32601, 'notifications not supported');
      await expectRpcError(rpc(node.url, 'eth_unsubscribe', ['0x1']), -32601, 'notifications not supported');
    });

    it('refuses unknown subscription kinds', async () => {
      await expectRpcError(ws.call('eth_subscribe', ['syncing' as never]), -32602, /.*/);
    });
  });

  describe('newHeads', () => {
    it('pushes the header of each new block once, in order', async () => {
      const id = await ws.call('eth_subscribe', ['newHeads']);
      expect(id).to.match(SUB_ID);
      const start = BigInt(await node.call('eth_blockNumber', []));
      for (let i = 0; i < 3; i++) await node.call('evm_mine', []);
      const heads = (await ws.waitFor(id, 3)) as BlockHeader[];
      expect(heads.map((h) => BigInt(h.number))).to.deep.equal([start + 1n, start + 2n, start + 3n]);
      for (const head of heads) {
        const block = await node.call('eth_getBlockByNumber', [head.number, false]);
        expect(head.hash).to.equal(block!.hash);
        expect(head.parentHash).to.equal(block!.parentHash);
        expect(head).to.not.have.property('transactions');
        expect(head).to.not.have.property('size');
      }
    });

    it('never pushes a notification ahead of the reply that names the subscription', async function () {
      this.timeout(30_000);
      let mining = true;
      const miner = (async () => {
        while (mining) await node.call('evm_mine', []);
      })();
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push(await ws.call('eth_subscribe', ['newHeads']));
      await ws.waitFor(ids[ids.length - 1], 2);
      mining = false;
      await miner;
      // afterEach checks that nothing arrived early.
    });
  });

  describe('logs', () => {
    it('pushes each matching log once, as eth_getLogs reports it', async () => {
      const all = await ws.call('eth_subscribe', ['logs', {}]);
      const some = await ws.call('eth_subscribe', ['logs', { address: emitter, topics: [null, [topic(2), topic(3)]] }]);
      const start = BigInt(await node.call('eth_blockNumber', []));
      await emit(node, emitter, [{ topics: [topic(1), topic(2)], data: 1n }, { topics: [topic(1), topic(9)], data: 2n }]);
      await emit(node, emitter, [{ topics: [topic(1)], data: 3n }, { topics: [topic(5), topic(3)], data: 4n }]);
      const expectedAll = await node.call('eth_getLogs', [{ fromBlock: `0x${(start + 1n).toString(16)}` }]);
      expect(await ws.waitFor(all, 4)).to.deep.equal(expectedAll);
      const matched = (await ws.waitFor(some, 2)) as Log[];
      expect(matched.map((l) => BigInt(l.data))).to.deep.equal([1n, 4n]);
      // Deliveries go out block by block: once a later subscription has the next block, no late duplicate is coming.
      const barrier = await ws.call('eth_subscribe', ['newHeads']);
      await node.call('evm_mine', []);
      await ws.waitFor(barrier, 1);
      expect(ws.received(all)).to.have.length(4);
      expect(ws.received(some)).to.have.length(2);
    });

    it('refuses more than four topic positions', async () => {
      await expectRpcError(ws.call('eth_subscribe', ['logs', { topics: [null, null, null, null, null] }]), -32602, 'exceed max topics');
    });
  });

  describe('newPendingTransactions', () => {
    it('pushes the hash of each transaction admitted to the pool', async () => {
      const id = await ws.call('eth_subscribe', ['newPendingTransactions']);
      await node.call('evm_setAutomine', [false]);
      try {
        const a = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: DEV_ADDRESSES[2], value: '0x1' }]);
        const b = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: DEV_ADDRESSES[2], value: '0x2' }]);
        expect(await ws.waitFor(id, 2)).to.deep.equal([a, b]);
      } finally {
        // Mine them now, so no block lands behind the next test's back.
        await node.call('evm_mine', []);
        await node.call('evm_setAutomine', [true]);
      }
    });
  });

  describe('a closed connection', () => {
    it('frees its subscriptions and the filters it installed', async () => {
      const { subscriptions, filters } = node.node.services;
      const before = { subscriptions: subscriptions.size, filters: filters.size };
      const other = await WsRpc.connect(node.url);
      await other.call('eth_subscribe', ['newHeads']);
      await other.call('eth_subscribe', ['logs', { address: emitter }]);
      const filter = await other.call('eth_newBlockFilter', []);
      await node.call('evm_mine', []);
      expect(await node.call('eth_getFilterChanges', [filter])).to.have.length(1); // usable over HTTP too
      expect(subscriptions.size).to.equal(before.subscriptions + 2);
      expect(filters.size).to.equal(before.filters + 1);
      await other.close();
      await until(() => subscriptions.size === before.subscriptions && filters.size === before.filters, 'the connection’s subscriptions and filters to go');
      await expectRpcError(node.call('eth_getFilterChanges', [filter]), -32000, 'filter not found');
    });
  });
});

describe('eth_subscribe (WebSocket): a slow consumer', function () {
  this.timeout(60_000);
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ wsMaxBacklog: 64 * 1024 });
  });
  after(async () => node.destroy());

  it('is closed with a reason once its backlog passes --ws-max-backlog, and reads the reason when it reads again later', async () => {
    const ws = await WsRpc.connect(node.url);
    const { subscriptions } = node.node.services;
    for (let i = 0; i < 50; i++) await ws.call('eth_subscribe', ['newHeads']);
    ws.stopReading();
    let mined = 0;
    while (subscriptions.size > 0) {
      await node.call('evm_mine', []);
      await subscriptions.idle();
      if (++mined > 2_000) expect.fail('the connection was never closed');
    }
    // The close frame waits behind what the kernel holds, not behind the dropped backlog.
    await sleep(3_000);
    ws.resumeReading();
    const { code, reason } = await ws.closed;
    expect(code).to.equal(1008);
    expect(reason).to.match(/backlog over 65536 bytes/);
    // The node goes on serving others.
    const other = await WsRpc.connect(node.url);
    expect(await other.call('eth_chainId', [])).to.equal('0x7a69');
    await other.close();
  });
});
