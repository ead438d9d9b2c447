// Typed subscriptions of the client SDK over its WebSocket transport: `client.subscribe(kind, listener)` against
// the node's eth_subscribe, and what happens when the connection drops (a TCP proxy the test cuts) while the
// chain moves on.
import { expect } from 'chai';
import { getCreateAddress } from 'ethers';
import { WebSocket } from 'ws';
import {
  createClient,
  webSocketTransport,
  TransportError,
  type BlockHeader,
  type Client,
  type Log,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from '../../clients/typescript/src/index.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';
import { until } from '../helpers/wait.js';
import { INIT, TOPIC, type Hex } from './answer-contract.js';
import { startDropProxy, type DropProxy } from './drop-proxy.js';

describe('client SDK: typed subscriptions over WebSocket', function () {
  let node: TestNode;
  let proxy: DropProxy;
  let contract: Hex;
  const transports: WebSocketTransport[] = [];

  function connect(url: string, options: Omit<WebSocketTransportOptions, 'WebSocket'> = {}): Client<WebSocketTransport> {
    const transport = webSocketTransport(url, { WebSocket, timeoutMs: 20_000, ...options });
    transports.push(transport);
    return createClient(transport);
  }
  const direct = () => connect(node.url.replace(/^http/, 'ws'));
  const throughProxy = (options: Omit<WebSocketTransportOptions, 'WebSocket'> = {}) => connect(proxy.wsUrl, options);

  async function mine(blocks = 1): Promise<void> {
    for (let i = 0; i < blocks; i++) await node.call('evm_mine', []);
  }
  /** Sends a call to the contract (one log) and mines it. */
  async function answer(): Promise<void> {
    await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: contract, input: '0x' }]);
    await mine();
  }

  before(async function () {
    node = await startTestNode({ mining: false });
    proxy = await startDropProxy(node.url);
    const nonce = Number(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'latest']));
    await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], input: INIT }]);
    await mine();
    contract = getCreateAddress({ from: DEV_ADDRESSES[0], nonce }).toLowerCase() as Hex;
  });

  after(async function () {
    for (const t of transports) await t.close();
    await proxy?.close();
    await node?.destroy();
  });

  it('delivers each new head, typed, as the header of the block', async function () {
    const client = direct();
    const heads: BlockHeader[] = [];
    const stop = await client.subscribe('newHeads', (head) => heads.push(head));
    const before = BigInt(await client.eth_blockNumber());
    await mine(2);
    await until(() => heads.length === 2, 'two heads');
    expect(heads.map((h) => BigInt(h.number))).to.deep.equal([before + 1n, before + 2n]);
    const { transactions, uncles, size, totalDifficulty, withdrawals, ...header } = (await client.eth_getBlockByNumber(heads[1]!.number, false))!;
    expect(heads[1]).to.deep.equal(header);
    await stop();
  });

  it('stops delivering once unsubscribed', async function () {
    const client = direct();
    const stopped: BlockHeader[] = [];
    const witness: BlockHeader[] = [];
    const stop = await client.subscribe('newHeads', (head) => stopped.push(head));
    await client.subscribe('newHeads', (head) => witness.push(head));
    await stop();
    await mine();
    await until(() => witness.length === 1, 'the other subscription to see the block');
    expect(stopped).to.deep.equal([]);
  });

  it('delivers the logs the filter matches, typed as Log', async function () {
    const client = direct();
    const logs: Log[] = [];
    const others: Log[] = [];
    await client.subscribe('logs', (log) => logs.push(log), { filter: { address: contract, topics: [TOPIC] } });
    await client.subscribe('logs', (log) => others.push(log), { filter: { topics: [`0x${'00'.repeat(32)}`] } });
    await answer();
    await until(() => logs.length === 1, 'the log');
    expect(logs[0]!.address).to.equal(contract);
    expect(logs[0]!.topics).to.deep.equal([TOPIC]);
    expect(others).to.deep.equal([]);
  });

  it('delivers the hash of each transaction the pool admits', async function () {
    const client = direct();
    const hashes: Hex[] = [];
    await client.subscribe('newPendingTransactions', (hash) => hashes.push(hash));
    const hash = await client.eth_sendTransaction({ from: DEV_ADDRESSES[0], to: contract, input: '0x' });
    await until(() => hashes.length === 1, 'the pending transaction');
    expect(hashes).to.deep.equal([hash]);
    await mine();
  });

  it('re-subscribes after the connection drops and replays the heads mined meanwhile, each once and in order', async function () {
    const witness: BlockHeader[] = [];
    await direct().subscribe('newHeads', (head) => witness.push(head));
    const heads: BlockHeader[] = [];
    const errors: Error[] = [];
    const client = throughProxy();
    await client.subscribe('newHeads', (head) => heads.push(head), { onError: (e) => errors.push(e) });
    const accepted = proxy.accepted;
    await mine();
    await until(() => heads.length === 1, 'the first head');

    proxy.cut();
    await mine(3);
    proxy.restore();
    await until(() => heads.length === 4, 'the heads mined while disconnected');
    expect(proxy.accepted).to.be.greaterThan(accepted);
    await mine();
    await until(() => heads.length === 5 && witness.length === 5, 'the next head on both');
    expect(heads).to.deep.equal(witness);
    expect(errors).to.deep.equal([]);
  });

  it('replays the logs emitted while the connection was down', async function () {
    const logs: Log[] = [];
    const client = throughProxy();
    await client.subscribe('logs', (log) => logs.push(log), { filter: { address: contract } });
    await answer();
    await until(() => logs.length === 1, 'the first log');

    proxy.cut();
    await answer();
    await answer();
    proxy.restore();
    await answer();
    await until(() => logs.length === 4, 'the logs of the four calls');
    const numbers = logs.map((l) => BigInt(l.blockNumber));
    expect(numbers).to.deep.equal([...numbers].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(numbers).size).to.equal(4);
  });

  it('re-subscribes newPendingTransactions after a drop, telling onError that events were lost', async function () {
    const hashes: Hex[] = [];
    const errors: Error[] = [];
    const client = throughProxy();
    await client.subscribe('newPendingTransactions', (hash) => hashes.push(hash), { onError: (e) => errors.push(e) });
    proxy.cut();
    await until(() => errors.length === 1, 'the drop reported');
    expect(errors[0]).to.be.instanceOf(TransportError);
    const missed = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: contract, input: '0x' }]);
    proxy.restore();
    // A call on the new connection is answered after the eth_subscribe sent ahead of it when it opened.
    await until(() => client.eth_chainId().then(() => true, () => false), 'a call through the restored proxy');
    const after = (await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: contract, input: '0x' }])) as Hex;
    await until(() => hashes.includes(after), 'the transaction sent after the reconnect');
    expect(hashes).to.not.include(missed);
    await mine();
  });

  it('ends subscriptions through onError when reconnecting gives up', async function () {
    const errors: Error[] = [];
    const heads: BlockHeader[] = [];
    const client = throughProxy({ reconnect: { delayMs: 10, attempts: 3 } });
    await client.subscribe('newHeads', (head) => heads.push(head), { onError: (e) => errors.push(e) });
    proxy.cut();
    await until(() => errors.length === 1, 'the subscription to end');
    proxy.restore();
    expect(errors[0]!.message).to.match(/gave up reconnecting to .* after 3 attempts/);
    await client.eth_chainId(); // the transport itself still works
    await mine();
    const witness: BlockHeader[] = [];
    await direct().subscribe('newHeads', (head) => witness.push(head));
    await mine();
    await until(() => witness.length === 1, 'a head on a live subscription');
    expect(heads).to.deep.equal([]);
  });

  it('ends subscriptions at a drop when reconnecting is off', async function () {
    const errors: Error[] = [];
    const client = throughProxy({ reconnect: false });
    await client.subscribe('newHeads', () => undefined, { onError: (e) => errors.push(e) });
    proxy.cut();
    await until(() => errors.length === 1, 'the subscription to end');
    proxy.restore();
    expect(errors[0]).to.be.instanceOf(TransportError);
    expect(errors[0]!.message).to.match(/connection to .* closed/);
  });
});
