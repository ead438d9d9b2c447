// Event watchers as dApps use them — viem's watchContractEvent and watchBlocks, ethers'
// contract.on — over HTTP polling and over WebSocket: while transactions stream in from several
// senders, every event arrives exactly once.
import { expect } from 'chai';
import { Contract, JsonRpcProvider, WebSocketProvider, type ContractEventPayload } from 'ethers';
import { createPublicClient, defineChain, http, webSocket, type Hex, type PublicClient } from 'viem';
import { emit, deployEmitter } from '../helpers/emitter-node.js';
import { PING_ABI, ping } from '../helpers/log-emitter.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';
import { until } from '../helpers/wait.js';
import { wsUrl } from '../helpers/ws-rpc.js';

const devChain = defineChain({
  id: 31337,
  name: 'evm-node dev',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});

const SENDERS = 3;
const TXS_PER_SENDER = 8;
const LOGS_PER_TX = 2;

describe('event watchers (viem, ethers): every event exactly once while transactions stream in', function () {
  this.timeout(60_000);
  let node: TestNode;
  let emitter: Hex;
  let nextId = 1n;

  before(async () => {
    node = await startTestNode();
    emitter = await deployEmitter(node);
  });
  after(async () => node.destroy());

  /** Sends Ping events from several senders at once (automine: one block each); answers the ids sent. */
  async function stream(): Promise<bigint[]> {
    const ids: bigint[] = [];
    await Promise.all(
      Array.from({ length: SENDERS }, async (_, sender) => {
        for (let i = 0; i < TXS_PER_SENDER; i++) {
          const batch = Array.from({ length: LOGS_PER_TX }, () => nextId++);
          ids.push(...batch);
          await emit(node, emitter, batch.map((id) => ping(id, id * 10n)), DEV_ADDRESSES[sender]);
        }
      }),
    );
    return ids.sort((a, b) => (a < b ? -1 : 1));
  }

  /** Waits for the watcher's filter or subscription to exist, so no event can precede it. */
  async function watcherReady(kind: 'filter' | 'subscription', before: number): Promise<void> {
    const { filters, subscriptions } = node.node.services;
    const count = () => (kind === 'filter' ? filters.size : subscriptions.size);
    await until(() => count() > before, `the watcher's ${kind}`);
  }

  /**
   * Waits for a watcher, mining an empty block now and then: ethers re-arms its filter poll only
   * when the next block arrives, so on a loaded machine it can miss the block event of the last
   * block and wait for one that an idle automine chain never mines (real chains keep mining).
   */
  async function untilSeen(condition: () => boolean, what: string): Promise<void> {
    let last = Date.now();
    await until(
      async () => {
        if (condition()) return true;
        if (Date.now() - last > 250) {
          last = Date.now();
          await node.call('evm_mine', []);
        }
        return false;
      },
      what,
      20_000,
    );
  }

  /**
   * After the stream, one more event as a barrier: watchers report in chain order, so once it is
   * in, everything before it is, and a late duplicate of anything before it would be too. Then the
   * tally. The barrier goes out at once: ethers over HTTP asks for a filter's changes only when it
   * sees a new block, so if the whole stream was mined while it was asking, it asks again only
   * once another block comes.
   */
  async function expectExactlyOnce(seen: bigint[], sent: bigint[]): Promise<void> {
    const barrier = nextId++;
    await emit(node, emitter, [ping(barrier, barrier * 10n)]);
    await untilSeen(() => seen.includes(barrier) && seen.length >= sent.length + 1, `${sent.length} events and the barrier (have ${seen.length})`);
    expect([...seen].sort((a, b) => (a < b ? -1 : 1))).to.deep.equal([...sent, barrier]);
  }

  describe('viem', () => {
    const clients: PublicClient[] = [];
    const client = (transport: 'http' | 'ws') =>
      createPublicClient({
        chain: devChain,
        transport: transport === 'http' ? http(node.url) : webSocket(wsUrl(node.url)),
        pollingInterval: 50,
      }) as PublicClient;
    afterEach(async () => {
      for (const c of clients.splice(0)) {
        if (c.transport.type === 'webSocket') await (await (c.transport as unknown as { getRpcClient(): Promise<{ close(): void }> }).getRpcClient()).close();
      }
    });

    for (const transport of ['http', 'ws'] as const) {
      it(`watchContractEvent over ${transport === 'http' ? 'HTTP polling (filters)' : 'WebSocket (eth_subscribe)'}`, async () => {
        const c = client(transport);
        clients.push(c);
        const seen: bigint[] = [];
        const errors: Error[] = [];
        const before = transport === 'http' ? node.node.services.filters.size : node.node.services.subscriptions.size;
        const unwatch = c.watchContractEvent({
          address: emitter,
          abi: PING_ABI,
          eventName: 'Ping',
          onLogs: (logs) => {
            for (const log of logs) seen.push(log.args.id!);
          },
          onError: (error) => errors.push(error),
        });
        try {
          await watcherReady(transport === 'http' ? 'filter' : 'subscription', before);
          await expectExactlyOnce(seen, await stream());
          expect(errors).to.deep.equal([]);
        } finally {
          unwatch();
        }
      });

      it(`watchBlocks over ${transport === 'http' ? 'HTTP polling' : 'WebSocket (newHeads)'}`, async () => {
        const c = client(transport);
        clients.push(c);
        const seen: bigint[] = [];
        const errors: Error[] = [];
        const before = node.node.services.subscriptions.size;
        const start = BigInt(await node.call('eth_blockNumber', []));
        let started = false;
        const unwatch = c.watchBlocks({
          emitMissed: true,
          onBlock: (block) => {
            started = true;
            if (block.number! > start) seen.push(block.number!);
          },
          onError: (error) => errors.push(error),
        });
        try {
          // Polling emits the head it starts from, and from then on every block (emitMissed).
          if (transport === 'ws') await watcherReady('subscription', before);
          else await until(() => started, 'the first poll');
          await stream();
          const head = BigInt(await node.call('eth_blockNumber', []));
          const expected: bigint[] = [];
          for (let n = start + 1n; n <= head; n++) expected.push(n);
          await until(() => seen.length >= expected.length, `${expected.length} blocks (have ${seen.length})`, 20_000);
          // One more block as a barrier: blocks are reported in order, so a late duplicate would come before it.
          await node.call('evm_mine', []);
          expected.push(head + 1n);
          await until(() => seen.includes(head + 1n), 'the barrier block', 20_000);
          expect(seen).to.deep.equal(expected);
          expect(errors).to.deep.equal([]);
        } finally {
          unwatch();
        }
      });
    }
  });

  describe('ethers', () => {
    for (const transport of ['http', 'ws'] as const) {
      it(`contract.on over ${transport === 'http' ? 'HTTP (eth_newFilter + eth_getFilterChanges)' : 'WebSocket (eth_subscribe)'}`, async () => {
        const provider =
          transport === 'http'
            ? new JsonRpcProvider(node.url, 31337, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 50 })
            : new WebSocketProvider(wsUrl(node.url), 31337, { staticNetwork: true, cacheTimeout: -1 });
        const contract = new Contract(emitter, PING_ABI, provider);
        const seen: bigint[] = [];
        const before = transport === 'http' ? node.node.services.filters.size : node.node.services.subscriptions.size;
        await contract.on('Ping', (id: bigint, _value: bigint, event: ContractEventPayload) => {
          expect(event.log.address.toLowerCase()).to.equal(emitter);
          seen.push(id);
        });
        try {
          await watcherReady(transport === 'http' ? 'filter' : 'subscription', before);
          await expectExactlyOnce(seen, await stream());
        } finally {
          await contract.removeAllListeners();
          await provider.destroy();
        }
      });
    }
  });
});
