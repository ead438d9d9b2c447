// The client SDK's WebSocket transport against the node's own WebSocket endpoint (ws://host:port), with the
// `ws` package's WebSocket as the constructor (Node 20 has no global WebSocket).
import { expect } from 'chai';
import { WebSocket } from 'ws';
import {
  ErrorCodes,
  JsonRpcError,
  TransportError,
  createClient,
  webSocketTransport,
  type Client,
  type WebSocketTransport,
} from '../../clients/typescript/src/index.js';
import { startTestNode, type TestNode } from '../helpers/node.js';

describe('client SDK: WebSocket transport', function () {
  let node: TestNode;
  let transport: WebSocketTransport;
  let client: Client;

  before(async function () {
    node = await startTestNode({ mining: false });
    transport = webSocketTransport(node.url.replace(/^http/, 'ws'), { WebSocket, timeoutMs: 20_000 });
    client = createClient(transport);
  });

  after(async function () {
    await transport?.close();
    await node?.destroy();
  });

  it('calls methods over one connection', async function () {
    const [chainId, block, accounts] = await Promise.all([
      client.eth_chainId(),
      client.eth_getBlockByNumber('0x0', false),
      client.eth_accounts(),
    ]);
    expect(chainId).to.equal('0x7a69');
    expect(block?.number).to.equal('0x0');
    expect(accounts.length).to.be.greaterThan(0);
  });

  it('surfaces JSON-RPC errors as JsonRpcError', async function () {
    const error = await client.eth_getBalance('0x1234' as never, 'latest').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).to.equal(ErrorCodes.InvalidParams);
    expect((error as JsonRpcError).message).to.match(/^invalid argument 0 \(address\)/);
  });

  it('delivers eth_subscription notifications to onNotification', async () => {
    const subscription = await client.eth_subscribe('newHeads');
    const heads: unknown[] = [];
    const got = new Promise<void>((resolve) => {
      const stop = transport.onNotification((method, params) => {
        const p = params as { subscription?: string; result?: unknown };
        if (method === 'eth_subscription' && p.subscription === subscription) {
          heads.push(p.result);
          stop();
          resolve();
        }
      });
    });
    await client.evm_mine();
    await got;
    expect((heads[0] as { number?: string }).number).to.equal('0x1');
    expect(await client.eth_unsubscribe(subscription)).to.equal(true);
  });

  it('rejects calls after close with a TransportError', async function () {
    const t = webSocketTransport(node.url.replace(/^http/, 'ws'), { WebSocket });
    expect(await createClient(t).net_listening()).to.equal(true);
    await t.close();
    const error = await createClient(t).net_listening().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(TransportError);
  });

  it('reports a refused connection as a TransportError', async function () {
    const t = webSocketTransport('ws://127.0.0.1:9', { WebSocket });
    const error = await createClient(t).eth_chainId().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(TransportError);
    await t.close();
  });
});
