// WebSocket transport on the HTTP port: the same JSON-RPC envelope per text frame, plus
// server-pushed eth_subscription notifications. Output a client has not read is held in bounds:
// per connection and across all of them, a connection holding too much is closed, so clients that
// stop reading cannot grow the server's memory.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import type { Subscriber, SubscriberSession } from '../filters/subscriptions.js';
import type { Logger } from '../log.js';
import type { CallContext, Dispatcher } from '../rpc/dispatch.js';
import { handleRpcBody, wholeText } from '../rpc/envelope.js';
import { DEFAULT_MAX_BATCH, DEFAULT_MAX_BODY_BYTES, type UpgradeHandler } from './http.js';

/** Close code for a connection dropped for falling behind (RFC 6455 1008, policy violation). */
export const BACKLOG_CLOSE_CODE = 1008;

/**
 * Output handed to a socket at once; the rest waits in the connection's queue as whole messages,
 * so a connection that is dropped can discard it and its close frame follows right behind what the
 * operating system already holds. (net.Socket's own high-water mark is the same 16 KiB.)
 */
const SOCKET_WINDOW_BYTES = 16 * 1024;

/**
 * How long a dropped connection may take to read up to its close frame and answer it before the
 * socket is destroyed. Only the window above and the kernel's buffers are still held meanwhile.
 */
const CLOSE_GRACE_MS = 10_000;

export interface WsServerOptions {
  invoke: Dispatcher;
  log: Logger;
  /** bytes of output one connection may hold before it is closed */
  maxBacklogBytes: number;
  /** bytes of output all connections together may hold; past it the largest backlogs are closed */
  maxTotalBacklogBytes: number;
  maxMessageBytes?: number;
  maxBatch?: number;
  /** bytes of JSON one answer's result may hold, and a batch's results together */
  maxResultBytes?: number;
  /** a connection ended (closed by either side, or dropped): free what it held */
  onClose(connection: WsConnection): void;
}

export interface WsServerHandle {
  /** for `startHttpServer({ onUpgrade })`, which has checked host and origin already */
  onUpgrade: UpgradeHandler;
  /** open connections */
  readonly size: number;
  /** bytes of output held for the open connections together */
  readonly backlogBytes: number;
  /** drops every connection */
  close(): void;
}

/** The output held for all open connections, and the limits on it. */
interface SharedBacklog {
  bytes: number;
  /** `connection` holds more than before: close it if it holds too much, or the largest if all together do */
  grew(connection: WsConnection): void;
}

/** One client connection: sends replies and notifications, and holds its unsent output in bounds. */
export class WsConnection implements Subscriber {
  private ended = false;
  /** Aborts when the connection ends: the calls it made have nobody to answer to. */
  private readonly gone = new AbortController();
  /**
   * Messages not yet handed to the socket. Kept as strings where they are text, in V8's heap, which
   * gives freed memory back to the system after a collection (Buffers sit in malloc's heap, which
   * keeps it); only a result joined from kept bytes, such as a pool's content, arrives as a Buffer.
   */
  private queue: Array<{ text: string | Buffer; bytes: number }> = [];
  /** bytes handed to the socket and not yet written to the network */
  private inFlight = 0;
  /** bytes of output held: the queue and what is in flight */
  private held = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly backlog: SharedBacklog,
    private readonly onEnd: (connection: WsConnection) => void,
  ) {}

  get isOpen(): boolean {
    return !this.ended;
  }

  /** Aborted once the connection has ended. */
  get closed(): AbortSignal {
    return this.gone.signal;
  }

  /** bytes of output this connection holds (0 once it has ended) */
  get backlogBytes(): number {
    return this.held;
  }

  send(text: string | Buffer): void {
    if (this.ended) return;
    const bytes = Buffer.byteLength(text);
    this.held += bytes;
    this.backlog.bytes += bytes;
    if (this.queue.length === 0 && this.fits(bytes)) this.write(text, bytes);
    else this.queue.push({ text, bytes });
    this.backlog.grew(this);
  }

  notify(subscription: string, result: unknown): void {
    if (this.ended) return;
    this.send(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":${JSON.stringify(subscription)},"result":${JSON.stringify(result)}}}`);
  }

  /**
   * Ends the connection now: nothing more is sent, output not yet handed to the socket is dropped,
   * and the socket is closed with `code` and `reason` (or destroyed without a code).
   */
  end(code?: number, reason?: string): void {
    if (this.ended) return;
    this.ended = true;
    this.gone.abort('the WebSocket closed');
    this.backlog.bytes -= this.held;
    this.held = 0;
    this.queue = [];
    this.onEnd(this);
    if (code === undefined) {
      this.socket.terminate();
      return;
    }
    this.socket.close(code, reason);
    setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS).unref();
  }

  private fits(bytes: number): boolean {
    return this.inFlight === 0 || this.inFlight + bytes <= SOCKET_WINDOW_BYTES;
  }

  private write(text: string | Buffer, bytes: number): void {
    this.inFlight += bytes;
    // A Buffer is a shared result's kept JSON: still a text frame, not a binary one.
    this.socket.send(text, { binary: false }, () => this.written(bytes));
  }

  /** `bytes` reached the network (or the socket is gone): hand over what waits, as the window allows. */
  private written(bytes: number): void {
    this.inFlight -= bytes;
    if (this.ended) return;
    this.held -= bytes;
    this.backlog.bytes -= bytes;
    while (this.queue.length > 0 && this.fits(this.queue[0]!.bytes)) {
      const { text, bytes: next } = this.queue.shift()!;
      this.write(text, next);
    }
  }
}

const textOf = (data: RawData): string =>
  (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');

export function createWsServer(opts: WsServerOptions): WsServerHandle {
  const { invoke, log } = opts;
  const maxBatch = opts.maxBatch ?? DEFAULT_MAX_BATCH;
  // The `ws` package loads on the first upgrade: most runs never open a WebSocket.
  let wss: Promise<WebSocketServer> | undefined;
  const server = () =>
    (wss ??= import('ws').then(({ WebSocketServer }) => new WebSocketServer({ noServer: true, maxPayload: opts.maxMessageBytes ?? DEFAULT_MAX_BODY_BYTES })));
  const connections = new Set<WsConnection>();
  const { maxBacklogBytes, maxTotalBacklogBytes } = opts;
  const backlog: SharedBacklog = {
    bytes: 0,
    grew(connection) {
      if (connection.backlogBytes > maxBacklogBytes) {
        log.debug(`websocket dropped: it held ${connection.backlogBytes} bytes`);
        connection.end(BACKLOG_CLOSE_CODE, `backlog over ${maxBacklogBytes} bytes: read faster or subscribe to less`);
        return;
      }
      if (backlog.bytes <= maxTotalBacklogBytes) return;
      for (const largest of [...connections].sort((a, b) => b.backlogBytes - a.backlogBytes)) {
        if (backlog.bytes <= maxTotalBacklogBytes) return;
        log.debug(`websocket dropped: it held ${largest.backlogBytes} bytes, the most while all held ${backlog.bytes}`);
        largest.end(BACKLOG_CLOSE_CODE, `server backlog over ${maxTotalBacklogBytes} bytes and this connection held the most: read faster`);
      }
    },
  };

  function accept(socket: WebSocket): void {
    const connection = new WsConnection(socket, backlog, (ended) => {
      connections.delete(ended);
      opts.onClose(ended);
    });
    connections.add(connection);
    // Requests run concurrently, but replies leave in the order the requests came: clients such as
    // viem fetch a block per newHeads notification and emit them in reply order.
    let replies: Promise<void> = Promise.resolve();
    socket.on('message', (data) => {
      // A dropped connection may still be sending; its answers would go nowhere.
      if (!connection.isOpen) return;
      const afterReply: Array<() => void> = [];
      const session: SubscriberSession = { subscriber: connection, afterReply: (action) => afterReply.push(action) };
      const ctx: CallContext = { transport: 'ws', connection: session, signal: connection.closed };
      const answer = handleRpcBody(textOf(data), (method, params) => invoke(method, params, ctx), { maxBatch, maxResultBytes: opts.maxResultBytes, log });
      replies = replies
        .then(() => answer)
        .then((text) => {
          if (text !== undefined) connection.send(wholeText(text));
          for (const action of afterReply) action();
        })
        .catch((error: unknown) => log.error('websocket request failed', error instanceof Error ? (error.stack ?? error.message) : error));
    });
    socket.on('close', () => connection.end());
    socket.on('error', (error) => {
      log.warn('websocket error', error.message);
      connection.end();
    });
  }

  return {
    onUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/') {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      server().then(
        (ready) => {
          if (!socket.destroyed) ready.handleUpgrade(req, socket, head, (ws) => accept(ws));
        },
        (error: unknown) => {
          log.error('cannot load the WebSocket server', error instanceof Error ? error.message : error);
          socket.destroy();
        },
      );
    },
    get size() {
      return connections.size;
    },
    get backlogBytes() {
      return backlog.bytes;
    },
    close: () => {
      for (const connection of [...connections]) connection.end();
      // Dropped connections still in their close grace, too.
      void wss?.then((ready) => {
        for (const socket of ready.clients) socket.terminate();
        ready.close();
      });
    },
  };
}
