// Slow, unfinished and aborted HTTP requests, and the bound on open connections: each is answered
// (or closed) within a bounded time, in JSON, and logged without alarm.
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';
import type { Logger } from '../../src/log.js';
import { createDispatcher, type MethodEntry } from '../../src/rpc/dispatch.js';
import { startHttpServer, type HttpServerHandle } from '../../src/transport/http.js';
import { startTestNode, testLogger, type TestNode } from '../helpers/node.js';
import { sleep, until } from '../helpers/wait.js';
import { rpcRaw } from '../helpers/rpc.js';
import { WsRpc } from '../helpers/ws-rpc.js';

const HEADER_TIMEOUT_MS = 300;
const READ_TIMEOUT_MS = 600;
/** node:http looks for expired requests once a second; anything cut must be cut by then, with room for a loaded machine */
const CUT_WITHIN_MS = READ_TIMEOUT_MS + 1000 + 2000;

interface RawConnection {
  socket: Socket;
  /** everything the server sent until it closed the connection, and when it closed, counted from connect */
  closed: Promise<{ text: string; afterMs: number }>;
}

async function openRaw(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<{ text: string; afterMs: number }>((resolve) => socket.once('close', () => resolve({ text, afterMs: Date.now() - started })));
  return { socket, closed };
}

/** Status line and parsed JSON body of one raw HTTP response. */
function parseResponse(text: string): { status: number; body: { jsonrpc: string; id: null; error: { code: number; message: string } } } {
  const [head, body] = text.split('\r\n\r\n');
  return { status: Number(head!.split(' ')[1]), body: JSON.parse(body!) };
}

function recordingLogger(): Logger & { lines: Array<{ level: string; text: string }> } {
  const lines: Array<{ level: string; text: string }> = [];
  const at = (level: string) => (message: string, ...meta: unknown[]) => void lines.push({ level, text: [message, ...meta.map(String)].join(' ') });
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

const CHAIN_ID_REQUEST = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}';

describe('HTTP transport: slow and unfinished requests', function () {
  this.timeout(30_000);
  let node: TestNode;
  const log = recordingLogger();

  before(async () => {
    node = await startTestNode({ httpHeaderTimeoutMs: HEADER_TIMEOUT_MS, httpReadTimeoutMs: READ_TIMEOUT_MS }, undefined, { log });
  });
  afterEach(() => {
    expect(log.lines.filter((line) => line.level === 'error' || line.level === 'warn')).to.deep.equal([]);
    log.lines.length = 0;
  });
  after(async () => node.destroy());

  it('answers 408 in JSON and closes a connection whose headers trickle in (slowloris)', async () => {
    const { socket, closed } = await openRaw(node.url);
    socket.write('POST / HTTP/1.1\r\nHost: localhost\r\n');
    const trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${Date.now()}: 1\r\n`), 100);
    const { text, afterMs } = await closed;
    clearInterval(trickle);
    expect(afterMs).to.be.within(HEADER_TIMEOUT_MS, CUT_WITHIN_MS);
    const { status, body } = parseResponse(text);
    expect(status).to.equal(408);
    expect(body).to.deep.equal({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: `request timed out: headers must arrive within ${HEADER_TIMEOUT_MS} ms and the whole request within ${READ_TIMEOUT_MS} ms` },
    });
  });

  it('closes a connection that never sends a request', async () => {
    const { closed } = await openRaw(node.url);
    const { afterMs } = await closed;
    expect(afterMs).to.be.below(CUT_WITHIN_MS);
  });

  it('answers 408 to a chunked body that never ends', async () => {
    const { socket, closed } = await openRaw(node.url);
    socket.write('POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    socket.write(`10\r\n${CHAIN_ID_REQUEST.slice(0, 16)}\r\n`);
    const { text, afterMs } = await closed;
    expect(afterMs).to.be.within(READ_TIMEOUT_MS, CUT_WITHIN_MS);
    expect(parseResponse(text).status).to.equal(408);
  });

  it('answers 408 to a body shorter than its Content-Length', async () => {
    const { socket, closed } = await openRaw(node.url);
    socket.write(`POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${CHAIN_ID_REQUEST.length + 10}\r\n\r\n${CHAIN_ID_REQUEST}`);
    const { text, afterMs } = await closed;
    expect(afterMs).to.be.within(READ_TIMEOUT_MS, CUT_WITHIN_MS);
    expect(parseResponse(text).status).to.equal(408);
  });

  it('serves a body that arrives after the header timeout but within the read timeout', async () => {
    const { socket, closed } = await openRaw(node.url);
    socket.write(`POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${CHAIN_ID_REQUEST.length}\r\n\r\n`);
    await sleep(HEADER_TIMEOUT_MS + 100);
    socket.write(CHAIN_ID_REQUEST);
    const { text } = await closed;
    expect(text).to.match(/^HTTP\/1.1 200 /);
    expect(JSON.parse(text.split('\r\n\r\n')[1]!)).to.deep.equal({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
  });

  for (const [how, leave] of [
    ['closes its side', (socket: Socket) => socket.destroy()],
    ['resets the connection', (socket: Socket) => socket.resetAndDestroy()],
  ] as const) {
    it(`logs a client that ${how} mid-body at debug, in one line without a stack`, async () => {
      const { socket, closed } = await openRaw(node.url);
      socket.write(`POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`);
      await sleep(100);
      log.lines.length = 0;
      leave(socket);
      await closed;
      await until(() => log.lines.length > 0, 'a log line');
      await sleep(100);
      expect(log.lines).to.have.length(1);
      expect(log.lines[0]!.level).to.equal('debug');
      expect(log.lines[0]!.text).to.match(/^http client \S+ went away \([A-Z_]+\)$/);
    });
  }

  it('answers 400 in JSON to a malformed request', async () => {
    const { socket, closed } = await openRaw(node.url);
    socket.write('NOT-HTTP\r\n\r\n');
    const { text } = await closed;
    const { status, body } = parseResponse(text);
    expect(status).to.equal(400);
    expect(body.error.message).to.match(/^malformed HTTP request \(HPE_/);
  });

  it('lets a WebSocket connection live past the read timeout', async () => {
    const ws = await WsRpc.connect(node.url);
    await sleep(CUT_WITHIN_MS);
    expect(await ws.call('eth_chainId', [])).to.equal('0x7a69');
    await ws.close();
  });
});

describe('HTTP transport: time spent answering', function () {
  this.timeout(30_000);
  let server: HttpServerHandle;

  before(async () => {
    const slow: MethodEntry = { invoke: () => sleep(CUT_WITHIN_MS).then(() => 'done') };
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      invoke: createDispatcher({ slow }, testLogger),
      health: async () => ({ ok: true }),
      log: testLogger,
      headersTimeoutMs: HEADER_TIMEOUT_MS,
      requestTimeoutMs: READ_TIMEOUT_MS,
    });
  });
  after(() => server.close());

  it('does not count against the read timeout', async () => {
    const { status, json } = await rpcRaw(server.url, { jsonrpc: '2.0', id: 1, method: 'slow', params: [] });
    expect(status).to.equal(200);
    expect(json).to.deep.equal({ jsonrpc: '2.0', id: 1, result: 'done' });
  });
});

describe('HTTP transport: --max-connections', function () {
  this.timeout(30_000);
  const MAX = 3;
  let node: TestNode;
  let held: RawConnection[];

  before(async () => {
    node = await startTestNode({ maxConnections: MAX });
  });
  beforeEach(async () => {
    held = [];
    for (let i = 0; i < MAX; i++) held.push(await openRaw(node.url));
  });
  afterEach(async () => {
    for (const { socket, closed } of held) {
      socket.destroy();
      await closed;
    }
  });
  after(async () => node.destroy());

  it('answers a request on one connection too many with 503, a JSON-RPC error and Retry-After, then closes it', async () => {
    const { socket, closed } = await openRaw(node.url);
    socket.write(`POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${CHAIN_ID_REQUEST.length}\r\n\r\n${CHAIN_ID_REQUEST}`);
    const { text } = await closed;
    const { status, body } = parseResponse(text);
    expect(status).to.equal(503);
    expect(text).to.match(/\r\nretry-after: 1\r\n/i);
    expect(body).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32005, message: `too many connections: limit ${MAX}` } });
  });

  it('answers a WebSocket upgrade on one connection too many with 503', async () => {
    const ws = new WebSocket(node.url.replace(/^http/, 'ws'));
    const status = await new Promise<number>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    ws.terminate();
    expect(status).to.equal(503);
  });

  it('serves new connections again once others have closed', async () => {
    const { socket, closed } = held.pop()!;
    socket.destroy();
    await closed;
    // The server hears of the close a moment after the client; until then a new connection is one too many.
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
      ({ status } = await rpcRaw(node.url, CHAIN_ID_REQUEST));
      if (status !== 200) await sleep(20);
    }
    expect(status).to.equal(200);
  });
});
