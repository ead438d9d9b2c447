// WebSocket transport on the HTTP port: the same JSON-RPC envelope per text frame, plus
// server-pushed eth_subscription notifications. A connection whose unsent output passes the
// backlog limit is closed, so a client that stops reading cannot grow the server's memory.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Subscriber, SubscriberSession } from '../filters/subscriptions.js';
import type { CallContext, Dispatcher, Logger } from '../rpc/dispatch.js';
import { handleRpcBody } from '../rpc/envelope.js';
import { DEFAULT_MAX_BATCH, DEFAULT_MAX_BODY_BYTES, type UpgradeHandler } from './http.js';

/** Close code for a connection dropped for falling behind (RFC 6455 1008, policy violation). */
export const BACKLOG_CLOSE_CODE = 1008;

export interface WsServerOptions {
  invoke: Dispatcher;
  log: Logger;
  /** bytes of output queued for one connection beyond which it is closed */
  maxBacklogBytes: number;
  maxMessageBytes?: number;
  maxBatch?: number;
  /** a connection ended (closed by either side, or dropped): free what it held */
  onClose(connection: WsConnection): void;
}

export interface WsServerHandle {
  /** for `startHttpServer({ onUpgrade })`, which has checked host and origin already */
  onUpgrade: UpgradeHandler;
  /** open connections */
  readonly size: number;
  /** drops every connection */
  close(): void;
}

/** One client connection: sends replies and notifications, and watches its own backlog. */
export class WsConnection implements Subscriber {
  private ended = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly maxBacklogBytes: number,
    private readonly onEnd: (connection: WsConnection) => void,
  ) {}

  get isOpen(): boolean {
    return !this.ended;
  }

  send(text: string): void {
    if (this.ended) return;
    this.socket.send(text);
    if (this.socket.bufferedAmount > this.maxBacklogBytes) {
      this.end(BACKLOG_CLOSE_CODE, `backlog over ${this.maxBacklogBytes} bytes: read faster or subscribe to less`);
    }
  }

  notify(subscription: string, result: unknown): void {
    if (this.ended) return;
    this.send(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":${JSON.stringify(subscription)},"result":${JSON.stringify(result)}}}`);
  }

  /** Ends the connection now (nothing more is sent) and closes the socket with `reason`. */
  end(code?: number, reason?: string): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
    if (code === undefined) {
      this.socket.terminate();
      return;
    }
    this.socket.close(code, reason);
    // A client that is not reading will not answer the close handshake either.
    setTimeout(() => this.socket.terminate(), 2_000).unref();
  }

  /** The socket closed from the other side. */
  closed(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
  }
}

const textOf = (data: RawData): string =>
  (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');

export function createWsServer(opts: WsServerOptions): WsServerHandle {
  const { invoke, log } = opts;
  const maxBatch = opts.maxBatch ?? DEFAULT_MAX_BATCH;
  const wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxMessageBytes ?? DEFAULT_MAX_BODY_BYTES });
  const connections = new Set<WsConnection>();

  function accept(socket: WebSocket, req: IncomingMessage): void {
    const connection = new WsConnection(socket, opts.maxBacklogBytes, (ended) => {
      connections.delete(ended);
      opts.onClose(ended);
    });
    connections.add(connection);
    const remoteAddress = req.socket.remoteAddress;
    // Requests run concurrently, but replies leave in the order the requests came: clients such as
    // viem fetch a block per newHeads notification and emit them in reply order.
    let replies: Promise<void> = Promise.resolve();
    socket.on('message', (data) => {
      const afterReply: Array<() => void> = [];
      const session: SubscriberSession = { subscriber: connection, afterReply: (action) => afterReply.push(action) };
      const ctx: CallContext = { transport: 'ws', remoteAddress, connection: session };
      const answer = handleRpcBody(textOf(data), (method, params) => invoke(method, params, ctx), { maxBatch, log });
      replies = replies
        .then(() => answer)
        .then((text) => {
          if (text !== undefined) connection.send(text);
          for (const action of afterReply) action();
        })
        .catch((error: unknown) => log.error('websocket request failed', error instanceof Error ? (error.stack ?? error.message) : error));
    });
    socket.on('close', () => connection.closed());
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
      wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req));
    },
    get size() {
      return connections.size;
    },
    close: () => {
      for (const connection of [...connections]) connection.end();
      wss.close();
    },
  };
}
