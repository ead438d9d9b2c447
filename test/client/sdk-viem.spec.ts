// The SDK's viem extension driving the node: `client.extend(evmNodeActions())` on viem's own clients and
// transports (HTTP and WebSocket), the contract as a viem RPC schema, and subscriptions across viem's reconnects.
import { expect } from 'chai';
import {
  BaseError,
  createClient as createViemClient,
  createPublicClient,
  createWalletClient,
  http,
  publicActions,
  rpcSchema,
  testActions,
  walletActions,
  webSocket,
  type WebSocketTransport,
} from 'viem';
import { foundry } from 'viem/chains';
import { ErrorCodes, JsonRpcError, TransportError, type BlockHeader, type Hash32, type Transaction } from '../../clients/typescript/src/index.js';
import { evmNodeActions, methodsViemLacks, type EvmNodeRpcSchema } from '../../clients/typescript/src/viem.js';
import { resultError, type MethodName } from '../../generated/index.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';
import { until } from '../helpers/wait.js';
import { startDropProxy, type DropProxy } from './drop-proxy.js';

const wsUrl = (url: string) => url.replace(/^http/, 'ws');

describe('client SDK: the viem extension', function () {
  let node: TestNode;

  before(async function () {
    node = await startTestNode();
  });

  after(async function () {
    await node?.destroy();
  });

  const httpClient = () => createPublicClient({ chain: foundry, transport: http(node.url) }).extend(evmNodeActions());

  it('adds an action for every method viem lacks, and none that shadows one of viem', function () {
    const client = httpClient();
    const added = Object.keys(evmNodeActions()(client));
    for (const method of methodsViemLacks) {
      const action = method.replace(/[._]([a-z])/g, (_, c: string) => c.toUpperCase());
      expect(client[action as keyof typeof client], method).to.be.a('function');
    }
    const bare = createViemClient({ transport: http(node.url) });
    const viemKeys = new Set([...Object.keys(bare), ...Object.keys(publicActions(bare)), ...Object.keys(walletActions(bare))]);
    for (const mode of ['anvil', 'hardhat', 'ganache'] as const) {
      for (const key of Object.keys(testActions({ mode })(bare))) viemKeys.add(key);
    }
    expect(added.filter((key) => viemKeys.has(key))).to.deep.equal([]);
  });

  it('answers the dev, pool and node methods within the contract', async function () {
    const client = httpClient();
    const answers: [MethodName, unknown][] = [
      ['txpool_status', await client.txpoolStatus()],
      ['txpool_content', await client.txpoolContent()],
      ['txpool_contentFrom', await client.txpoolContentFrom(DEV_ADDRESSES[0])],
      ['txpool_inspect', await client.txpoolInspect()],
      ['txpool_simpleContent', await client.txpoolSimpleContent()],
      ['eth_syncing', await client.ethSyncing()],
      ['net_version', await client.netVersion()],
      ['net_listening', await client.netListening()],
      ['web3_clientVersion', await client.web3ClientVersion()],
      ['rpc.discover', await client.rpcDiscover()],
      ['evm_setAutomine', await client.evmSetAutomine(true)],
      ['evm_setIntervalMining', await client.evmSetIntervalMining(0)],
    ];
    for (const [method, result] of answers) expect(resultError(method, result), method).to.equal(null);
    const before = await client.getBlockNumber({ cacheTime: 0 });
    expect(await client.evmMine()).to.equal('0x0');
    expect(await client.getBlockNumber({ cacheTime: 0 })).to.equal(before + 1n);
  });

  it('offers the whole contract as evmNode, with block reads narrowed by the details flag', async function () {
    const wallet = createWalletClient({ chain: foundry, transport: http(node.url), account: DEV_ADDRESSES[0] }).extend(evmNodeActions());
    const hash = await wallet.sendTransaction({ to: DEV_ADDRESSES[1], value: 1n });
    const full = await wallet.evmNode.eth_getBlockByNumber('latest', true);
    const hashes = await wallet.evmNode.eth_getBlockByNumber('latest', false);
    const transactions: Transaction[] = full!.transactions;
    const transactionHashes: Hash32[] = hashes!.transactions;
    expect(transactions.map((t) => t.hash)).to.deep.equal([hash]);
    expect(transactionHashes).to.deep.equal([hash]);
    expect(resultError('eth_getBlockByNumber', full)).to.equal(null);
  });

  it("batches through viem's transport when it batches", async function () {
    let posts = 0;
    const client = createPublicClient({
      transport: http(node.url, { batch: true, fetchFn: (input, init) => (posts++, fetch(input, init)) }),
    }).extend(evmNodeActions());
    const [chainId, status, refused] = await client.evmNode.batch([
      { method: 'eth_chainId' },
      { method: 'txpool_status' },
      { method: 'eth_getBalance', params: ['0x1234', 'latest'] },
    ]);
    expect(posts).to.equal(1);
    expect(chainId.ok && chainId.result).to.equal('0x7a69');
    expect(status.ok && resultError('txpool_status', status.result)).to.equal(null);
    expect(!refused.ok && (refused.error as JsonRpcError).code).to.equal(ErrorCodes.InvalidParams);
  });

  it("answers errors as the SDK's JsonRpcError, viem's error as the cause", async function () {
    const client = httpClient();
    const error = await client.txpoolContentFrom('0x12').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(JsonRpcError);
    const e = error as JsonRpcError;
    expect(e.code).to.equal(ErrorCodes.InvalidParams);
    expect(e.method).to.equal('txpool_contentFrom');
    expect(e.message).to.match(/^invalid argument 0 \(address\)/);
    expect(e.cause).to.be.instanceOf(BaseError);
  });

  it("types viem's own request by the contract through EvmNodeRpcSchema", async function () {
    const client = createViemClient({ transport: http(node.url), rpcSchema: rpcSchema<EvmNodeRpcSchema>() });
    const status = await client.request({ method: 'txpool_status' });
    expect(Number(status.pending)).to.be.a('number');
    // @ts-expect-error evm_setAutomine takes a boolean
    const refused = await client.request({ method: 'evm_setAutomine', params: ['yes'] }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(BaseError);
    // @ts-expect-error not a method of the contract
    await client.request({ method: 'eth_nope' }).catch(() => undefined);
  });

  it("rejects subscribe on viem's HTTP transport with a TransportError", async function () {
    const error = await httpClient().subscribe('newHeads', () => undefined).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(TransportError);
    expect((error as Error).message).to.match(/webSocket transport/);
  });

  describe("over viem's webSocket transport", function () {
    let proxy: DropProxy;
    const sockets: { close(): void }[] = [];
    /** A viem client on its webSocket transport, its socket closed after these tests. */
    async function viaWebSocket(transport: WebSocketTransport) {
      const client = createPublicClient({ transport }).extend(evmNodeActions());
      sockets.push(await client.transport.getRpcClient());
      return client;
    }

    before(async function () {
      proxy = await startDropProxy(node.url);
    });

    after(async function () {
      for (const socket of sockets) socket.close();
      await proxy?.close();
    });

    it('delivers typed heads until unsubscribed', async function () {
      const client = await viaWebSocket(webSocket(wsUrl(node.url)));
      const heads: BlockHeader[] = [];
      const witness: BlockHeader[] = [];
      const stop = await client.subscribe('newHeads', (head) => heads.push(head));
      await client.subscribe('newHeads', (head) => witness.push(head));
      await client.evmMine();
      await until(() => heads.length === 1 && witness.length === 1, 'the head');
      expect(heads[0]!.number).to.equal(`0x${(await client.getBlockNumber({ cacheTime: 0 })).toString(16)}`);
      await stop();
      await client.evmMine();
      await until(() => witness.length === 2, 'the next head on the other subscription');
      expect(heads).to.have.length(1);
    });

    it("re-subscribes after viem reconnects, and replays the heads mined meanwhile", async function () {
      const witness: BlockHeader[] = [];
      const direct = await viaWebSocket(webSocket(wsUrl(node.url), { key: 'direct' }));
      await direct.subscribe('newHeads', (head) => witness.push(head));
      // viem stops retrying after a failed attempt until its next keep-alive ping: ping often.
      const client = await viaWebSocket(webSocket(proxy.wsUrl, { reconnect: { delay: 50, attempts: 100 }, keepAlive: { interval: 100 } }));
      const heads: BlockHeader[] = [];
      const errors: Error[] = [];
      await client.subscribe('newHeads', (head) => heads.push(head), { onError: (e) => errors.push(e) });
      await direct.evmMine();
      await until(() => heads.length === 1, 'the first head');

      proxy.cut();
      await direct.evmMine();
      await direct.evmMine();
      proxy.restore();
      await until(() => heads.length === 3, 'the heads mined while disconnected');
      await direct.evmMine();
      await until(() => heads.length === 4 && witness.length === 4, 'the next head on both');
      expect(heads).to.deep.equal(witness);
      expect(errors).to.deep.equal([]);
    });
  });
});
