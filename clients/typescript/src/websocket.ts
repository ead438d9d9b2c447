// The WebSocket transport: one connection for calls, batches and subscriptions. It takes the platform's WebSocket
// or any constructor with the same surface (Node 20 has none built in: pass `WebSocket` from "ws").

import { JsonRpcError, TransportError } from "./errors.js";
import { isObject, nextId, outcome, requestMessage, settle, type ResponseMessage } from "./jsonrpc.js";
import type { RawCall, RawOutcome, SubscribingTransport, SubscriptionHandlers, TransportSubscription } from "./transport.js";

/** The part of the WebSocket API the transport uses; both the browser's WebSocket and the `ws` package have it. */
interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code?: number; reason?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** A WebSocket class: `globalThis.WebSocket` in browsers (and Node ≥ 22), or `WebSocket` from the `ws` package. */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => object;

/** How the transport reconnects after a drop while it holds subscriptions. */
export interface ReconnectOptions {
  /** Wait before the first attempt, in milliseconds (default 100); each further attempt waits twice as long. */
  delayMs?: number;
  /** The longest wait between attempts, in milliseconds (default 5000). */
  maxDelayMs?: number;
  /** Attempts before the subscriptions end with `onEnd` (default 10). */
  attempts?: number;
}

export interface WebSocketTransportOptions {
  /** WebSocket implementation (default: `globalThis.WebSocket`). */
  WebSocket?: WebSocketConstructor;
  /** Reject a call (or a batch) unanswered after this many milliseconds (default: no timeout). */
  timeoutMs?: number;
  /** Reconnecting while subscriptions are held (default: on, see ReconnectOptions); `false` ends them at a drop. */
  reconnect?: ReconnectOptions | false;
}

/** A server-sent notification, e.g. `eth_subscription` with `{ subscription, result }`. */
export type NotificationListener = (method: string, params: unknown) => void;

export interface WebSocketTransport extends SubscribingTransport {
  /** Listens for every notification (messages without an id); returns a function that stops listening. */
  onNotification(listener: NotificationListener): () => void;
}

const OPEN = 1;

/** Someone waiting for the answer to one request id. `dropped`: the connection closed (rather than a timeout). */
interface Waiter {
  settle(msg: ResponseMessage): void;
  fail(error: TransportError | JsonRpcError, dropped: boolean): void;
}

/** A subscription the transport keeps alive: `id` is the node's current id for it, undefined while there is none. */
interface HeldSubscription {
  readonly params: readonly unknown[];
  readonly handlers: SubscriptionHandlers;
  id?: string;
  /** an `eth_subscribe` for it is on the wire */
  opening: boolean;
}

/**
 * One connection, opened on the first call. A call pending when the connection drops rejects with TransportError;
 * the next call opens a new connection. While subscriptions are held the transport reconnects by itself (with
 * backoff, see ReconnectOptions) and sends each `eth_subscribe` again; each subscription's `onOpen` gets its new id.
 */
export function webSocketTransport(url: string, options: WebSocketTransportOptions = {}): WebSocketTransport {
  const Impl = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (typeof Impl !== "function") {
    throw new TransportError("no WebSocket implementation: pass { WebSocket } (e.g. from the 'ws' package on Node 20)");
  }
  const reconnect = options.reconnect === false ? undefined : { delayMs: 100, maxDelayMs: 5000, attempts: 10, ...options.reconnect };
  const waiting = new Map<number, Waiter>();
  const listeners = new Set<NotificationListener>();
  const subscriptions = new Set<HeldSubscription>();
  const byId = new Map<string, HeldSubscription>();
  let socket: Promise<SocketLike> | undefined;
  let closed = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let failedAttempts = 0;

  const failAll = (error: TransportError | JsonRpcError, dropped: boolean): void => {
    const all = [...waiting.values()];
    waiting.clear();
    for (const w of all) w.fail(error, dropped);
  };

  const decode = (data: unknown): string => {
    if (typeof data === "string") return data;
    if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
    if (ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
    if (Array.isArray(data)) return data.map(decode).join(""); // ws: fragmented Buffer[]
    return String(data);
  };

  const onMessage = (raw: unknown): void => {
    let msg: unknown;
    try {
      msg = JSON.parse(decode(raw));
    } catch {
      return; // not JSON-RPC: nothing to settle
    }
    for (const m of Array.isArray(msg) ? msg : [msg]) {
      if (!isObject(m)) continue;
      if (typeof m.method === "string" && m.id === undefined) {
        const p = m.params;
        if (m.method === "eth_subscription" && isObject(p) && typeof p.subscription === "string") {
          byId.get(p.subscription)?.handlers.onEvent(p.result);
        }
        for (const l of listeners) l(m.method, p);
        continue;
      }
      // An error nobody can be told apart from (id null: the node could not read or accept a message) fails
      // every call in flight, since which one it answers is unknown.
      if (m.id === null && m.error !== undefined) {
        try {
          settle("request", m);
        } catch (error) {
          failAll(error as JsonRpcError | TransportError, false);
        }
        continue;
      }
      const w = typeof m.id === "number" ? waiting.get(m.id) : undefined;
      if (!w) continue;
      waiting.delete(m.id as number);
      w.settle(m);
    }
  };

  /** Registers `waiter` for `id`, with the call timeout when one is set. */
  const wait = (id: number, what: string, waiter: Waiter): void => {
    if (options.timeoutMs === undefined) {
      waiting.set(id, waiter);
      return;
    }
    const timer = setTimeout(() => {
      if (waiting.delete(id)) waiter.fail(new TransportError(`${what}: no answer within ${options.timeoutMs} ms`), false);
    }, options.timeoutMs);
    waiting.set(id, {
      settle: (msg) => {
        clearTimeout(timer);
        waiter.settle(msg);
      },
      fail: (error, dropped) => {
        clearTimeout(timer);
        waiter.fail(error, dropped);
      },
    });
  };

  /** Sends `message`; a send that throws fails the given ids' waiters. */
  const send = (ws: SocketLike, message: unknown, ids: number[], what: string): void => {
    try {
      ws.send(JSON.stringify(message));
    } catch (error) {
      const failure = new TransportError(`${what}: send failed: ${(error as Error).message}`, undefined, undefined, { cause: error });
      for (const id of ids) {
        const w = waiting.get(id);
        waiting.delete(id);
        w?.fail(failure, false);
      }
    }
  };

  const endSubscription = (sub: HeldSubscription, error: Error): void => {
    if (!subscriptions.delete(sub)) return;
    if (sub.id !== undefined) byId.delete(sub.id);
    sub.handlers.onEnd(error);
  };

  /**
   * Sends `eth_subscribe` for `sub`. Its id is mapped as the answer is read, before any later message of the same
   * read, so no notification for it can arrive unrouted. `first` settles the caller of `subscribe`.
   */
  const sendSubscribe = (ws: SocketLike, sub: HeldSubscription, first?: { resolve(): void; reject(error: unknown): void }): void => {
    const id = nextId();
    sub.opening = true;
    wait(id, "eth_subscribe", {
      settle: (msg) => {
        sub.opening = false;
        let subscriptionId: unknown;
        try {
          subscriptionId = settle("eth_subscribe", msg);
          if (typeof subscriptionId !== "string") throw new TransportError(`eth_subscribe: the node answered ${JSON.stringify(subscriptionId)}, not an id`);
        } catch (error) {
          subscriptions.delete(sub);
          if (first) first.reject(error);
          else sub.handlers.onEnd(error as Error);
          return;
        }
        if (!subscriptions.has(sub)) {
          // Closed while the answer was on its way: the node holds a subscription nobody wants.
          send(ws, requestMessage(nextId(), "eth_unsubscribe", [subscriptionId]), [], "eth_unsubscribe");
          return;
        }
        sub.id = subscriptionId;
        byId.set(subscriptionId, sub);
        sub.handlers.onOpen(subscriptionId);
        first?.resolve();
      },
      fail: (error, dropped) => {
        sub.opening = false;
        if (first) {
          subscriptions.delete(sub);
          first.reject(error);
        } else if (!dropped) {
          endSubscription(sub, error);
        }
        // Dropped: the close handler reported it, and the next connection sends it again.
      },
    });
    send(ws, requestMessage(id, "eth_subscribe", sub.params), [id], "eth_subscribe");
  };

  const connect = (): Promise<SocketLike> =>
    new Promise<SocketLike>((resolve, reject) => {
      let ws: SocketLike;
      try {
        ws = new Impl(url) as SocketLike;
      } catch (error) {
        reject(new TransportError(`cannot open ${url}: ${(error as Error).message}`, undefined, undefined, { cause: error }));
        return;
      }
      let opened = false;
      ws.onopen = () => {
        opened = true;
        resolve(ws);
      };
      ws.onmessage = (event) => onMessage(event.data);
      ws.onerror = () => {
        if (!opened) reject(new TransportError(`cannot connect to ${url}`));
      };
      ws.onclose = (event) => {
        const why = event?.code !== undefined ? ` (code ${event.code}${event.reason ? `: ${event.reason}` : ""})` : "";
        if (!opened) {
          reject(new TransportError(`cannot connect to ${url}${why}`));
          return;
        }
        socket = undefined;
        const error = new TransportError(`connection to ${url} closed${why}`);
        failAll(error, true);
        if (closed) return;
        for (const sub of subscriptions) {
          if (sub.id !== undefined) byId.delete(sub.id);
          sub.id = undefined;
          sub.handlers.onDrop(error);
        }
        if (!reconnect) for (const sub of [...subscriptions]) endSubscription(sub, error);
        else scheduleReconnect();
      };
    });

  /** The open connection, or a new one; a new one sends every held subscription again. */
  const ensureSocket = (): Promise<SocketLike> => {
    if (closed) return Promise.reject(new TransportError("transport is closed"));
    if (reconnectTimer !== undefined) {
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
    }
    return (socket ??= connect().then(
      (ws) => {
        failedAttempts = 0;
        for (const sub of subscriptions) if (sub.id === undefined && !sub.opening) sendSubscribe(ws, sub);
        return ws;
      },
      (error: unknown) => {
        socket = undefined;
        failedAttempts++;
        scheduleReconnect();
        throw error;
      },
    ));
  };

  function scheduleReconnect(): void {
    if (!reconnect || closed || subscriptions.size === 0 || reconnectTimer !== undefined || socket !== undefined) return;
    if (failedAttempts >= reconnect.attempts) {
      const error = new TransportError(`gave up reconnecting to ${url} after ${failedAttempts} attempts`);
      for (const sub of [...subscriptions]) endSubscription(sub, error);
      failedAttempts = 0;
      return;
    }
    const delay = Math.min(reconnect.delayMs * 2 ** failedAttempts, reconnect.maxDelayMs);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      ensureSocket().catch(() => undefined); // a failed attempt schedules the next one
    }, delay);
  }

  const openSocket = async (): Promise<SocketLike> => {
    const ws = await ensureSocket();
    if (ws.readyState !== OPEN) throw new TransportError(`connection to ${url} is not open`);
    return ws;
  };

  const transport: WebSocketTransport = {
    async request(method, params) {
      const ws = await openSocket();
      const id = nextId();
      return new Promise<unknown>((resolve, reject) => {
        wait(id, method, {
          settle: (msg) => {
            try {
              resolve(settle(method, msg));
            } catch (error) {
              reject(error);
            }
          },
          fail: reject,
        });
        send(ws, requestMessage(id, method, params), [id], method);
      });
    },

    async batch(calls: readonly RawCall[]): Promise<RawOutcome[]> {
      if (calls.length === 0) return [];
      const ws = await openSocket();
      const ids = calls.map(() => nextId());
      const what = `batch of ${calls.length}`;
      return new Promise<RawOutcome[]>((resolve, reject) => {
        const outcomes: RawOutcome[] = new Array(calls.length);
        let left = calls.length;
        let failed = false;
        calls.forEach((call, i) => {
          wait(ids[i]!, what, {
            settle: (msg) => {
              outcomes[i] = outcome(call.method, msg);
              if (--left === 0) resolve(outcomes);
            },
            fail: (error) => {
              if (failed) return;
              failed = true;
              for (const id of ids) waiting.delete(id);
              // The node refused the whole batch (id null): every call has that answer, as over HTTP.
              if (error instanceof JsonRpcError) resolve(calls.map(() => ({ ok: false, error })));
              else reject(error);
            },
          });
        });
        send(ws, calls.map((c, i) => requestMessage(ids[i]!, c.method, c.params)), ids, what);
      });
    },

    async subscribe(params, handlers): Promise<TransportSubscription> {
      const ws = await openSocket();
      const sub: HeldSubscription = { params, handlers, opening: false };
      subscriptions.add(sub);
      await new Promise<void>((resolve, reject) => sendSubscribe(ws, sub, { resolve, reject }));
      return {
        close: async () => {
          if (!subscriptions.delete(sub) || sub.id === undefined) return;
          const id = sub.id;
          byId.delete(id);
          sub.id = undefined;
          if (socket === undefined) return; // disconnected: the node dropped it with the connection
          await transport.request("eth_unsubscribe", [id]).catch((error: unknown) => {
            if (!(error instanceof TransportError)) throw error;
          });
        },
      };
    },

    onNotification(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async close() {
      closed = true;
      if (reconnectTimer !== undefined) clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      subscriptions.clear();
      byId.clear();
      const current = socket;
      socket = undefined;
      failAll(new TransportError("transport is closed"), false);
      if (!current) return;
      const ws = await current.catch(() => undefined);
      if (!ws || ws.readyState > OPEN) return;
      await new Promise<void>((resolve) => {
        ws.onclose = () => resolve();
        ws.close(1000, "client closed");
      });
    },
  };
  return transport;
}
