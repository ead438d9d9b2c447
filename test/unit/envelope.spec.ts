import { expect } from 'chai';
import { rawHttp } from '../helpers/raw-http.js';
import type { Logger } from '../../src/log.js';
import { createDispatcher, type MethodEntry } from '../../src/rpc/dispatch.js';
import { invalidParams, RpcError } from '../../src/rpc/errors.js';
import { composedResult, sharedResult } from '../../src/rpc/shared-results.js';
import { startHttpServer, type HttpServerHandle } from '../../src/transport/http.js';
import { RpcCallError, rpc, rpcRaw } from '../helpers/rpc.js';

const MAX_BODY = 4096;
const MAX_BATCH = 5;
const MAX_RESULT = 1000;

type ErrorBody = { jsonrpc: string; id: unknown; error: { code: number; message: string; data?: unknown } };
type ResultBody = { jsonrpc: string; id: unknown; result: unknown };

describe('JSON-RPC envelope over HTTP', () => {
  let server: HttpServerHandle;
  let url: string;
  let notified = 0;
  let counted = 0;
  const logged: unknown[][] = [];
  const log: Logger = { error: (...a) => void logged.push(a), warn: (...a) => void logged.push(a), info: () => undefined, debug: () => undefined };

  const methods: Record<string, MethodEntry> = {
    echo: { invoke: async (p) => p },
    notify: { invoke: async () => void notified++ },
    fails: {
      invoke: async () => {
        throw new Error('secret internals');
      },
    },
    rejects: {
      invoke: async () => {
        throw new RpcError(-32000, 'nope', '0xdead');
      },
    },
    add: {
      invoke: async (p) => {
        if (p.length !== 2 || !p.every((x) => typeof x === 'number')) throw invalidParams('add expects two numbers');
        return (p[0] as number) + (p[1] as number);
      },
    },
    big: { invoke: async () => ({ value: 1n }) },
    text: { invoke: async (p) => 'x'.repeat(p[0] as number) },
    count: { invoke: async () => ++counted },
    endless: {
      invoke: async () => ({
        toJSON() {
          throw new RangeError('Invalid string length');
        },
      }),
    },
    shared: { invoke: async () => sharedBlock },
    composed: { invoke: async () => composedResult({ parts: ['a', 'b'] }, Buffer.from('{"parts":["a","b"]}')) },
  };
  const sharedBlock = sharedResult({ number: '0x1', transactions: ['0xab'] });

  before(async () => {
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      invoke: createDispatcher(methods, log),
      health: async () => ({ ok: true }),
      log,
      maxBodyBytes: MAX_BODY,
      maxBatch: MAX_BATCH,
      maxResultBytes: MAX_RESULT,
    });
    url = server.url;
  });
  after(() => server.close());
  beforeEach(() => {
    notified = 0;
    counted = 0;
    logged.length = 0;
  });

  const call = (body: unknown, headers?: Record<string, string>) => rpcRaw(url, body, headers);

  describe('requests and ids', () => {
    it('answers a single call with its result', async () => {
      expect(await rpc(url, 'echo', [1, 'two'])).to.deep.equal([1, 'two']);
    });

    it('echoes a string id', async () => {
      const { json } = await call({ jsonrpc: '2.0', id: 'abc', method: 'echo', params: [] });
      expect(json).to.deep.equal({ jsonrpc: '2.0', id: 'abc', result: [] });
    });

    it('echoes a number id', async () => {
      const { json } = await call({ jsonrpc: '2.0', id: 42, method: 'echo', params: [] });
      expect((json as ResultBody).id).to.equal(42);
    });

    it('echoes id 0', async () => {
      const { json } = await call({ jsonrpc: '2.0', id: 0, method: 'echo', params: [] });
      expect((json as ResultBody).id).to.equal(0);
    });

    it('echoes an empty-string id', async () => {
      const { json } = await call({ jsonrpc: '2.0', id: '', method: 'echo', params: [] });
      expect((json as ResultBody).id).to.equal('');
    });

    it('answers a request with id null (it is not a notification)', async () => {
      const { status, json } = await call({ jsonrpc: '2.0', id: null, method: 'echo', params: [7] });
      expect(status).to.equal(200);
      expect(json).to.deep.equal({ jsonrpc: '2.0', id: null, result: [7] });
    });

    it('runs a notification and answers 204 with an empty body', async () => {
      const { status, text } = await call({ jsonrpc: '2.0', method: 'notify', params: [] });
      expect(status).to.equal(204);
      expect(text).to.equal('');
      expect(notified).to.equal(1);
    });

    it('treats omitted params as []', async () => {
      const { json } = await call({ jsonrpc: '2.0', id: 1, method: 'echo' });
      expect((json as ResultBody).result).to.deep.equal([]);
    });

    it('accepts a charset parameter on the content type', async () => {
      const { json } = await call({ jsonrpc: '2.0', id: 1, method: 'echo' }, { 'Content-Type': 'application/json; charset=utf-8' });
      expect((json as ResultBody).result).to.deep.equal([]);
    });
  });

  describe('batches', () => {
    it('answers 204 to a batch of notifications', async () => {
      const { status, text } = await call([
        { jsonrpc: '2.0', method: 'notify' },
        { jsonrpc: '2.0', method: 'notify' },
      ]);
      expect(status).to.equal(204);
      expect(text).to.equal('');
      expect(notified).to.equal(2);
    });

    it('keeps order and omits notifications in a mixed batch', async () => {
      const { json } = await call([
        { jsonrpc: '2.0', id: 'a', method: 'echo', params: ['x'] },
        { jsonrpc: '2.0', method: 'notify' },
        { jsonrpc: '2.0', id: 'b', method: 'foo_bar' },
        { jsonrpc: '2.0', id: 'c', method: 'add', params: [1, 2] },
      ]);
      const arr = json as Array<ResultBody & ErrorBody>;
      expect(arr.map((r) => r.id)).to.deep.equal(['a', 'b', 'c']);
      expect(arr[0]!.result).to.deep.equal(['x']);
      expect(arr[1]!.error.code).to.equal(-32601);
      expect(arr[2]!.result).to.equal(3);
      expect(notified).to.equal(1);
    });

    it('answers a shared result, serialised once, alike on every call', async () => {
      for (let i = 0; i < 2; i++) expect((await call({ jsonrpc: '2.0', id: i, method: 'shared' })).json).to.deep.equal({ jsonrpc: '2.0', id: i, result: sharedBlock });
    });

    it('answers a result joined from kept JSON with that JSON', async () => {
      const { text } = await call({ jsonrpc: '2.0', id: 7, method: 'composed' });
      expect(text).to.equal('{"jsonrpc":"2.0","id":7,"result":{"parts":["a","b"]}}');
    });

    it('keeps order in a batch mixing kept JSON and plain results', async () => {
      const { json } = await call([
        { jsonrpc: '2.0', id: 'a', method: 'echo', params: ['x'] },
        { jsonrpc: '2.0', id: 'b', method: 'composed' },
        { jsonrpc: '2.0', id: 'c', method: 'foo_bar' },
        { jsonrpc: '2.0', id: 'd', method: 'shared' },
      ]);
      const arr = json as Array<ResultBody & ErrorBody>;
      expect(arr.map((r) => r.id)).to.deep.equal(['a', 'b', 'c', 'd']);
      expect(arr[0]!.result).to.deep.equal(['x']);
      expect(arr[1]!.result).to.deep.equal({ parts: ['a', 'b'] });
      expect(arr[2]!.error.code).to.equal(-32601);
      expect(arr[3]!.result).to.deep.equal(sharedBlock);
    });

    it('answers an empty batch with a single -32600 error', async () => {
      const { json } = await call([]);
      expect(json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } });
    });

    it('refuses a batch over the limit with a single -32600 error', async () => {
      const batch = Array.from({ length: MAX_BATCH + 1 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'echo' }));
      const { status, json } = await call(batch);
      expect(status).to.equal(200);
      expect(json).to.deep.equal({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: `batch too large: ${MAX_BATCH + 1} requests, limit ${MAX_BATCH}` },
      });
    });
  });

  describe('result size', () => {
    const refusal = (what: string) => ({ code: -32003, message: `response too large: ${what} passed ${MAX_RESULT} bytes of JSON, this node's --max-response-bytes`, data: { limit: MAX_RESULT } });

    it('answers a result whose JSON fits the limit; one byte more is -32003 naming the limit', async () => {
      expect(await rpc(url, 'text', [MAX_RESULT - 2])).to.have.length(MAX_RESULT - 2);
      const { json } = await call({ jsonrpc: '2.0', id: 1, method: 'text', params: [MAX_RESULT - 1] });
      expect(json).to.deep.equal({ jsonrpc: '2.0', id: 1, error: refusal('the result') });
    });

    it('a result too long for V8 to serialise is -32003 too, not -32603', async () => {
      const { json } = await call({ jsonrpc: '2.0', id: 1, method: 'endless', params: [] });
      expect((json as ErrorBody).error).to.deep.equal(refusal('the result'));
    });

    it("a batch's results share the limit: the one past it and the rest are -32003, and the rest never run", async () => {
      const { json } = await call([
        { jsonrpc: '2.0', id: 'a', method: 'text', params: [400] },
        { jsonrpc: '2.0', id: 'b', method: 'text', params: [400] },
        { jsonrpc: '2.0', id: 'c', method: 'text', params: [400] },
        { jsonrpc: '2.0', id: 'd', method: 'count', params: [] },
        { jsonrpc: '2.0', method: 'count', params: [] },
      ]);
      const arr = json as Array<ResultBody & ErrorBody>;
      expect(arr.map((r) => r.id)).to.deep.equal(['a', 'b', 'c', 'd']);
      expect(arr.slice(0, 2).map((r) => (r.result as string).length)).to.deep.equal([400, 400]);
      expect(arr.slice(2).map((r) => r.error)).to.deep.equal([refusal("the batch's results together"), refusal("the batch's results together")]);
      expect(counted).to.equal(0);
    });
  });

  describe('malformed input', () => {
    it('answers a body over the limit with -32600 and HTTP 200', async () => {
      const { status, headers, json } = await call({ jsonrpc: '2.0', id: 1, method: 'echo', params: ['x'.repeat(MAX_BODY)] });
      expect(status).to.equal(200);
      expect(headers.get('content-type')).to.equal('application/json');
      expect((json as ErrorBody).error).to.deep.equal({ code: -32600, message: `request body too large: limit ${MAX_BODY} bytes` });
    });

    it('answers invalid JSON with -32700 and id null', async () => {
      const { status, json } = await call('{"jsonrpc":"2.0","id":1,');
      expect(status).to.equal(200);
      expect(json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    });

    const shapes: Array<[string, unknown, unknown]> = [
      ['a request that is not an object', 1, null],
      ['a missing jsonrpc member', { id: 5, method: 'echo' }, 5],
      ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 5, method: 'echo' }, 5],
      ['a non-string method', { jsonrpc: '2.0', id: 5, method: 1 }, 5],
      ['an id that is neither string, number nor null', { jsonrpc: '2.0', id: { x: 1 }, method: 'echo' }, null],
    ];
    for (const [name, body, id] of shapes) {
      it(`answers ${name} with -32600`, async () => {
        const { json } = await call(body);
        expect(json).to.deep.equal({ jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request' } });
      });
    }

    it('answers by-name (object) params with -32602', async () => {
      const { json } = await call({ jsonrpc: '2.0', id: 1, method: 'echo', params: { a: 1 } });
      expect((json as ErrorBody).error).to.deep.equal({ code: -32602, message: 'non-array params are not supported' });
    });

    it('answers a non-JSON content type with 415 and a JSON-RPC error', async () => {
      const { status, headers, json } = await call('{}', { 'Content-Type': 'text/plain' });
      expect(status).to.equal(415);
      expect(headers.get('content-type')).to.equal('application/json');
      expect((json as ErrorBody).error).to.deep.equal({
        code: -32600,
        message: 'invalid content type, only application/json is supported',
      });
    });
  });

  describe('method errors', () => {
    it('answers an unknown method with geth’s -32601 message', async () => {
      const { json } = await call({ jsonrpc: '2.0', id: 1, method: 'foo_bar', params: [] });
      expect((json as ErrorBody).error).to.deep.equal({
        code: -32601,
        message: 'the method foo_bar does not exist/is not available',
      });
    });

    it('answers a validator failure with -32602 and its message', async () => {
      const err = await rpc(url, 'add', [1, 'x']).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(RpcCallError);
      expect(err).to.include({ code: -32602, message: 'add expects two numbers' });
    });

    it('answers a plain exception with -32603, logging but never sending the stack', async () => {
      const { text, json } = await call({ jsonrpc: '2.0', id: 1, method: 'fails', params: [] });
      expect(json).to.deep.equal({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'internal error' } });
      expect(text).not.to.match(/secret internals|at .*\.js/);
      expect(JSON.stringify(logged)).to.include('secret internals');
    });

    it('passes an RpcError through with its data', async () => {
      const { json } = await call({ jsonrpc: '2.0', id: 1, method: 'rejects', params: [] });
      expect((json as ErrorBody).error).to.deep.equal({ code: -32000, message: 'nope', data: '0xdead' });
    });

    it('turns an unserialisable result (bigint) into -32603 instead of crashing', async () => {
      const { json } = await call({ jsonrpc: '2.0', id: 1, method: 'big', params: [] });
      expect((json as ErrorBody).error).to.deep.equal({ code: -32603, message: 'internal error' });
      expect(await rpc(url, 'echo', [1])).to.deep.equal([1]);
    });
  });

  describe('HTTP routing and policy', () => {
    it('serves GET /health as JSON', async () => {
      const res = await fetch(`${url}/health`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/json');
      expect(await res.json()).to.deep.equal({ ok: true });
    });

    it('answers an unknown GET path with a JSON 404', async () => {
      const res = await fetch(`${url}/nope`);
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.equal('application/json');
      expect(((await res.json()) as ErrorBody).error.message).to.equal('not found');
    });

    it('answers PUT with a JSON 405 and an Allow header', async () => {
      const res = await fetch(url, { method: 'PUT', body: '{}' });
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.equal('POST, GET, OPTIONS');
      expect(res.headers.get('content-type')).to.equal('application/json');
      expect(((await res.json()) as ErrorBody).error.message).to.equal('method not allowed');
    });

    it('refuses an unknown Host with a JSON 403', async () => {
      const res = await rawHttp(url, {
        method: 'POST',
        headers: { Host: 'evil.example:8545', 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo' }),
      });
      expect(res.status).to.equal(403);
      expect(res.headers['content-type']).to.equal('application/json');
      expect((JSON.parse(res.text) as ErrorBody).error.message).to.equal('invalid host specified');
    });

    it('accepts an allowed Host regardless of case and port', async () => {
      const res = await rawHttp(url, { method: 'GET', path: '/health', headers: { Host: 'LocalHost:1234' } });
      expect(res.status).to.equal(200);
    });

    it('adds CORS headers for an allowed origin', async () => {
      const { status, headers } = await call({ jsonrpc: '2.0', id: 1, method: 'echo' }, { Origin: 'http://localhost:3000' });
      expect(status).to.equal(200);
      expect(headers.get('access-control-allow-origin')).to.equal('http://localhost:3000');
    });

    it('refuses a POST from a disallowed origin with a JSON 403', async () => {
      const { status, headers, json } = await call({ jsonrpc: '2.0', id: 1, method: 'echo' }, { Origin: 'https://evil.example' });
      expect(status).to.equal(403);
      expect(headers.get('access-control-allow-origin')).to.equal(null);
      expect((json as ErrorBody).error.code).to.equal(-32600);
    });

    it('answers a CORS preflight from an allowed origin', async () => {
      const res = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://127.0.0.1:5173',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
      expect(res.status).to.equal(204);
      expect(res.headers.get('access-control-allow-origin')).to.equal('http://127.0.0.1:5173');
      expect(res.headers.get('access-control-allow-methods')).to.include('POST');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).to.include('content-type');
    });

    it('refuses a CORS preflight from a disallowed origin', async () => {
      const res = await fetch(url, { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } });
      expect(res.status).to.equal(403);
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
    });
  });
});
