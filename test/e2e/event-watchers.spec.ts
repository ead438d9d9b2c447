// Event watchers as dApps use them — viem's watchContractEvent and watchBlocks, ethers'
// contract.on — over HTTP polling and over WebSocket: while transactions stream in from several
// senders, every event arrives exactly once.
import { expect } from 'chai';
import { Contract, JsonRpcProvider, WebSocketProvider, type ContractEventPayload } from 'ethers';
import { createPublicClient, defineChain, http, webSocket, type Hex, type PublicClient } from 'viem';
import { emit, deployEmitter } from '../helpers/emitter-node.js';
import { PING_ABI, ping } from '../helpers/log-emitter.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';
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

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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

  /** After the stream, gives a late duplicate the chance to show, then checks the tally. */
  async function expectExactlyOnce(seen: bigint[], sent: bigint[]): Promise<void> {
    await until(() => seen.length >= sent.length, `${sent.length} events (have ${seen.length})`);
    await node.call('evm_mine', []);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([...seen].sort((a, b) => (a < b ? -1 : 1))).to.deep.equal(sent);
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
          await until(() => seen.length >= expected.length, `${expected.length} blocks (have ${seen.length})`);
          await new Promise((resolve) => setTimeout(resolve, 300));
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
