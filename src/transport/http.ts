// HTTP transport on node:http: the host/origin policy (browser-guards.ts) applied, body limits, time limits on slow clients, a
// bound on open connections, and mapping envelope results to status codes. Every answer is JSON —
// never HTML.

import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../log.js';
import type { CallContext, Dispatcher } from '../rpc/dispatch.js';
import { handleRpcBody } from '../rpc/envelope.js';
import { ErrorCode } from '../rpc/errors.js';
import { DEFAULT_ALLOWED_HOSTS, DEFAULT_CORS_ORIGINS, hostPolicy, isOriginAllowed } from './browser-guards.js';

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_BATCH = 1000;
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_CONNECTIONS = 1024;
/** How often node:http looks for requests past their time limits: a slow client is cut within this much of its limit. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface HttpServerOptions {
  host: string;
  port: number;
  invoke: Dispatcher;
  /** GET /health's body; one with `ok: false` is sent with status 503. */
  health: () => Promise<unknown>;
  log: Logger;
  maxBodyBytes?: number;
  maxBatch?: number;
  /** bytes of JSON one answer's result may hold, and a batch's results together */
  maxResultBytes?: number;
  allowedHosts?: readonly string[];
  corsOrigins?: readonly string[];
  /** ms a client may take to send a request's headers (slowloris); then 408 and the connection closes */
  headersTimeoutMs?: number;
  /** ms a client may take to send a whole request, body included; then 408 and the connection closes */
  requestTimeoutMs?: number;
  /** open connections (HTTP and WebSocket) at once; a request on one more is answered 503 and it closes */
  maxConnections?: number;
  /** Extra GET paths (e.g. a playground at "/"); checked after /health. */
  routes?: Readonly<Record<string, RouteHandler>>;
  /** Called for Upgrade requests that passed the host and origin checks (WebSocket). */
  onUpgrade?: UpgradeHandler;
  /** Told of each request refused for its Host or Origin header, with the header's value. */
  onRefused?: (header: 'host' | 'origin', value: string) => void;
}

export interface HttpServerHandle {
  url: string;
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

const ALLOW = 'POST, GET, OPTIONS';

function sendJson(res: ServerResponse, status: number, body: string | readonly Buffer[], headers: http.OutgoingHttpHeaders = {}): void {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.reduce((sum, chunk) => sum + chunk.length, 0);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': length });
  if (typeof body === 'string') {
    res.end(body);
    return;
  }
  // One write to the socket for all the pieces, without joining them first.
  res.cork();
  for (const chunk of body) res.write(chunk);
  res.end();
  res.uncork();
}

const errorBody = (code: number, message: string): string => JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });

function sendError(res: ServerResponse, status: number, message: string, headers?: http.OutgoingHttpHeaders, code: number = ErrorCode.InvalidRequest): void {
  sendJson(res, status, errorBody(code, message), headers);
}

/** A whole HTTP error response, for a socket with no ServerResponse to write it. */
function rawErrorResponse(status: number, message: string, code: number): string {
  const body = errorBody(code, message);
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/**
 * Errors that mean the client went away (HPE_INVALID_EOF_STATE: it closed its side mid-request):
 * worth a debug line, never a stack.
 */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED', 'HPE_INVALID_EOF_STATE']);

const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/** The answer to a request node:http gave up on, or undefined when the client is gone and the socket just closes. */
function clientErrorAnswer(error: NodeJS.ErrnoException, headersTimeoutMs: number, requestTimeoutMs: number): { status: number; message: string } | undefined {
  const code = error.code ?? '';
  if (CLIENT_GONE.has(code)) return undefined;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, message: `request timed out: headers must arrive within ${headersTimeoutMs} ms and the whole request within ${requestTimeoutMs} ms` };
  }
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'request headers too large' };
  if (code.startsWith('HPE_')) return { status: 400, message: `malformed HTTP request (${code})` };
  return undefined;
}

/** Whether a response has begun on `socket`, so nothing else may be written to it (node:http's own check). */
const responseStarted = (socket: Duplex): boolean => (socket as { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true;

function isJsonContentType(value: string | undefined): boolean {
  return value === 'application/json' || value?.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** Resolves with the body, or null once it exceeds `limit` — after which nothing more is read. */
function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    // A JSON-RPC request mostly arrives in one chunk: decoded from it directly, without a copy.
    req.once('end', () => resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8')));
    req.once('error', reject);
  });
}

/**
 * The context of the calls in one HTTP request. Its signal aborts once the client has gone before
 * the answer was sent (the connection closed); made at the first call that asks for it, so the
 * calls that never do cost nothing more. A class, its getter on the prototype: an object literal
 * with a getter of its own cost every request ~35 µs of node CPU (eth_blockNumber, measured).
 */
class HttpCallContext implements CallContext {
  readonly transport = 'http';
  #gone?: AbortController;

  constructor(private readonly res: ServerResponse) {}

  get signal(): AbortSignal {
    if (this.#gone === undefined) {
      const gone = new AbortController();
      const abort = () => gone.abort('the client disconnected');
      if (this.res.socket === null || this.res.socket.destroyed) abort();
      else this.res.once('close', () => this.res.writableFinished || abort());
      this.#gone = gone;
    }
    return this.#gone.signal;
  }
}

export async function startHttpServer(opts: HttpServerOptions): Promise<HttpServerHandle> {
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxBatch = opts.maxBatch ?? DEFAULT_MAX_BATCH;
  const allowedHosts = opts.allowedHosts ?? DEFAULT_ALLOWED_HOSTS;
  const corsOrigins = opts.corsOrigins ?? DEFAULT_CORS_ORIGINS;
  const headersTimeoutMs = opts.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const maxConnections = opts.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const routes = opts.routes ?? {};
  const { log } = opts;
  const isHostAllowed = hostPolicy(allowedHosts);
  /** sockets accepted while `maxConnections` were open: their request is answered 503 */
  const overLimit = new WeakSet<Duplex>();
  const tooManyConnections = `too many connections: limit ${maxConnections}`;

  function corsHeaders(origin: string | undefined): http.OutgoingHttpHeaders {
    if (origin === undefined) return {};
    // Echoing the origin (rather than "*") needs Vary so caches keep answers apart.
    return corsOrigins.includes('*')
      ? { 'Access-Control-Allow-Origin': '*' }
      : { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
  }

  async function handlePost(req: IncomingMessage, res: ServerResponse, cors: http.OutgoingHttpHeaders): Promise<void> {
    if (!isJsonContentType(req.headers['content-type'])) {
      sendError(res, 415, 'invalid content type, only application/json is supported', cors);
      return;
    }
    const body = await readBody(req, maxBodyBytes);
    if (body === null) {
      // The rest of the upload is never read, so this connection cannot be reused.
      sendError(res, 200, `request body too large: limit ${maxBodyBytes} bytes`, { ...cors, Connection: 'close' });
      return;
    }
    const ctx = new HttpCallContext(res);
    const answer = await handleRpcBody(body, (method, params) => opts.invoke(method, params, ctx), { maxBatch, maxResultBytes: opts.maxResultBytes, log });
    if (answer === undefined) {
      res.writeHead(204, cors);
      res.end();
    } else {
      sendJson(res, 200, answer, cors);
    }
  }

  async function handleGet(req: IncomingMessage, res: ServerResponse, path: string, cors: http.OutgoingHttpHeaders): Promise<void> {
    if (path === '/health') {
      let report: unknown;
      try {
        report = (await opts.health()) ?? null;
      } catch (err) {
        log.warn('health check failed', err instanceof Error ? err.message : err);
        sendError(res, 503, 'unhealthy', cors);
        return;
      }
      sendJson(res, (report as { ok?: unknown } | null)?.ok === false ? 503 : 200, JSON.stringify(report), cors);
      return;
    }
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (route) {
      await route(req, res);
      return;
    }
    sendError(res, 404, 'not found', cors);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (overLimit.has(req.socket)) {
      return sendError(res, 503, tooManyConnections, { Connection: 'close', 'Retry-After': '1' }, ErrorCode.LimitExceeded);
    }
    const host = req.headers.host;
    const origin = req.headers.origin;
    if (!isHostAllowed(host)) {
      opts.onRefused?.('host', host ?? '');
      return sendError(res, 403, 'invalid host specified');
    }
    const originOk = isOriginAllowed(origin, corsOrigins, host);
    const cors = originOk ? corsHeaders(origin) : {};
    // JSON-RPC clients post to "/": no need to parse that one.
    const path = req.url === '/' ? '/' : new URL(req.url ?? '/', 'http://x').pathname;
    const refuseOrigin = () => {
      opts.onRefused?.('origin', origin ?? '');
      sendError(res, 403, 'origin not allowed');
    };

    if (req.method === 'OPTIONS') {
      if (!originOk) return refuseOrigin();
      res.writeHead(204, {
        ...cors,
        Allow: ALLOW,
        'Access-Control-Allow-Methods': ALLOW,
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'Content-Type',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    if (req.method === 'POST') {
      if (!originOk) return refuseOrigin();
      if (path !== '/') return sendError(res, 404, 'not found', cors);
      return handlePost(req, res, cors);
    }
    if (req.method === 'GET') return handleGet(req, res, path, cors);
    sendError(res, 405, 'method not allowed', { ...cors, Allow: ALLOW });
  }

  const server = http.createServer(
    { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS },
    (req, res) => {
      handle(req, res).catch((err: unknown) => {
        // The client left mid-request; 'clientError' below has logged it.
        if (CLIENT_GONE.has(errorCode(err) ?? '')) {
          res.destroy();
          return;
        }
        log.error('http handler failed', err instanceof Error ? err.stack ?? err.message : err);
        if (!res.headersSent) sendError(res, 500, 'internal error');
        else res.destroy();
      });
    },
  );

  // Counted before node:http sees the socket; one past the limit is still served, with a 503,
  // which clients report (and viem retries) more clearly than a connection reset.
  let openConnections = 0;
  server.prependListener('connection', (socket: Socket) => {
    openConnections++;
    if (openConnections > maxConnections) overLimit.add(socket);
    socket.once('close', () => openConnections--);
  });

  // Requests node:http gave up on: timed out (slowloris, unfinished bodies), malformed, or the client left.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answer = clientErrorAnswer(error, headersTimeoutMs, requestTimeoutMs);
    const client = `http client ${(socket as Socket).remoteAddress}`;
    log.debug(answer === undefined ? `${client} went away (${error.code ?? error.message})` : `${client}: ${answer.message}`);
    if (answer === undefined || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(answer.status, answer.message, ErrorCode.InvalidRequest), () => socket.destroy());
  });

  if (opts.onUpgrade) {
    const onUpgrade = opts.onUpgrade;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (overLimit.has(socket)) {
        // No parser or timeout watches an upgrade's socket any more: close it once the answer is out.
        socket.end(rawErrorResponse(503, tooManyConnections, ErrorCode.LimitExceeded), () => socket.destroy());
        return;
      }
      // Browsers apply no CORS to WebSockets, so the origin check is the only guard here.
      const hostOk = isHostAllowed(req.headers.host);
      if (!hostOk || !isOriginAllowed(req.headers.origin, corsOrigins, req.headers.host)) {
        if (hostOk) opts.onRefused?.('origin', req.headers.origin ?? '');
        else opts.onRefused?.('host', req.headers.host ?? '');
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      onUpgrade(req, socket, head);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => log.error('http server error', err));

  const port = (server.address() as AddressInfo).port;
  const urlHost = opts.host.includes(':') && !opts.host.startsWith('[') ? `[${opts.host}]` : opts.host;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((resolve, reject) => {
      server.close((err) => (err ? reject(err) : resolve()));
      // Keep-alive sockets would otherwise hold close() open until they time out.
      server.closeAllConnections();
    }));

  return { url: `http://${urlHost}:${port}`, port, server, close };
}
