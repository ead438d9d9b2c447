// `client.batch([...])`: JSON-RPC batches through the SDK's HTTP and WebSocket transports, one message each, with
// an outcome per call typed by its method; and through a transport without batches, as concurrent requests.
import { expect } from 'chai';
import { WebSocket } from 'ws';
import {
  ErrorCodes,
  JsonRpcError,
  createClient,
  httpTransport,
  webSocketTransport,
  type Block,
  type Transport,
} from '../../clients/typescript/src/index.js';
import { resultError, type MethodName } from '../../generated/index.js';
import { DEFAULT_MAX_BATCH } from '../../src/transport/http.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';

interface Counted {
  transport: Transport;
  /** messages (HTTP requests, WebSocket frames) sent so far */
  sent(): number;
}

function countingHttp(url: string): Counted {
  let sent = 0;
  const transport = httpTransport(url, {
    fetch: (input, init) => {
      sent++;
      return fetch(input, init);
    },
  });
  return { transport, sent: () => sent };
}

function countingWebSocket(url: string): Counted {
  let sent = 0;
  class CountingWebSocket extends WebSocket {
    constructor(address: string) {
      super(address);
      const send = this.send.bind(this);
      this.send = ((data: string) => {
        sent++;
        send(data);
      }) as WebSocket['send'];
    }
  }
  const transport = webSocketTransport(url.replace(/^http/, 'ws'), { WebSocket: CountingWebSocket });
  return { transport, sent: () => sent };
}

/** Keeps `request` and `close` only: a transport that cannot batch. */
function withoutBatch(url: string): Counted {
  const inner = countingHttp(url);
  const transport: Transport = { request: (m, p) => inner.transport.request(m, p), close: () => inner.transport.close() };
  return { transport, sent: inner.sent };
}

const kinds: [string, (url: string) => Counted, 'one message' | 'one message per call'][] = [
  ['HTTP', countingHttp, 'one message'],
  ['WebSocket', countingWebSocket, 'one message'],
  ['a transport without batches', withoutBatch, 'one message per call'],
];

describe('client SDK: batches', function () {
  let node: TestNode;

  before(async function () {
    node = await startTestNode();
  });

  after(async function () {
    await node?.destroy();
  });

  for (const [name, make, messages] of kinds) {
    describe(`over ${name}`, function () {
      let counted: Counted;

      beforeEach(function () {
        counted = make(node.url);
      });

      afterEach(async function () {
        await counted.transport.close();
      });

      it(`answers every call in order, typed by its method, in ${messages}`, async function () {
        const client = createClient(counted.transport);
        const before = counted.sent();
        const [chainId, balance, block, accounts] = await client.batch([
          { method: 'eth_chainId' },
          { method: 'eth_getBalance', params: [DEV_ADDRESSES[0], 'latest'] },
          { method: 'eth_getBlockByNumber', params: ['0x0', false] },
          { method: 'eth_accounts', params: [] },
        ]);
        expect(counted.sent() - before).to.equal(messages === 'one message' ? 1 : 4);
        if (!chainId.ok || !balance.ok || !block.ok || !accounts.ok) throw new Error('a call failed');
        const id: `0x${string}` = chainId.result;
        const genesis: Block | null = block.result;
        expect(id).to.equal('0x7a69');
        expect(BigInt(balance.result) > 0n).to.equal(true);
        expect(genesis?.number).to.equal('0x0');
        expect(accounts.result).to.include(DEV_ADDRESSES[0]);
        const methods: MethodName[] = ['eth_chainId', 'eth_getBalance', 'eth_getBlockByNumber', 'eth_accounts'];
        [chainId.result, balance.result, block.result, accounts.result].forEach((result, i) => {
          expect(resultError(methods[i]!, result), methods[i]).to.equal(null);
        });
      });

      it('fails only the call the node refused, with its JsonRpcError', async function () {
        const client = createClient(counted.transport);
        const outcomes = await client.batch([
          { method: 'eth_blockNumber' },
          { method: 'eth_getBalance', params: ['0x1234', 'latest'] },
          { method: 'eth_chainId' },
        ]);
        expect(outcomes.map((o) => o.ok)).to.deep.equal([true, false, true]);
        const failed = outcomes[1];
        if (failed.ok) throw new Error('expected a failure');
        expect(failed.error).to.be.instanceOf(JsonRpcError);
        expect((failed.error as JsonRpcError).code).to.equal(ErrorCodes.InvalidParams);
        expect(failed.error.message).to.match(/^invalid argument 0 \(address\)/);
      });

      it('resolves an empty batch with [] and sends nothing', async function () {
        const client = createClient(counted.transport);
        const before = counted.sent();
        expect(await client.batch([])).to.deep.equal([]);
        expect(counted.sent()).to.equal(before);
      });
    });
  }

  for (const [name, make] of kinds.slice(0, 2)) {
    it(`over ${name}, fails each call of a batch the node refuses as too large`, async function () {
      const { transport } = make(node.url);
      const client = createClient(transport);
      const calls = Array.from({ length: DEFAULT_MAX_BATCH + 1 }, () => ({ method: 'eth_chainId' }) as const);
      const outcomes = await client.batch(calls);
      expect(outcomes).to.have.length(calls.length);
      for (const o of outcomes) {
        if (o.ok) throw new Error('expected every call to fail');
        expect((o.error as JsonRpcError).code).to.equal(ErrorCodes.InvalidRequest);
        expect(o.error.message).to.match(/^batch too large/);
      }
      await transport.close();
    });
  }
});
