// Transports: how one JSON-RPC call travels. HTTP uses the platform's fetch; WebSocket takes the platform's
// WebSocket or any constructor with the same surface (Node 20 has none built in: pass `WebSocket` from "ws").

import { JsonRpcError, TransportError } from "./errors.js";

/** Carries calls to a node. `request` resolves with `result` or rejects with JsonRpcError / TransportError. */
export interface Transport {
  request(method: string, params: readonly unknown[]): Promise<unknown>;
  /** Releases connections (a no-op for HTTP). */
  close(): Promise<void>;
}

/**
 * Positional params as they go on the wire: trailing `undefined` entries are dropped (an omitted optional param);
 * an `undefined` before a given param becomes `null`, as JSON.stringify would make it.
 */
export function encodeParams(params: readonly unknown[]): unknown[] {
  let end = params.length;
  while (end > 0 && params[end - 1] === undefined) end--;
  return params.slice(0, end).map((p) => (p === undefined ? null : p));
}

interface ResponseMessage {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The result of a response message, or the JsonRpcError it carries. */
function settle(method: string, msg: ResponseMessage): unknown {
  if (msg.error !== undefined) {
    const e = msg.error;
    if (!isObject(e) || typeof e.code !== "number" || typeof e.message !== "string") {
      throw new TransportError(`${method}: malformed error object in response`, undefined, JSON.stringify(e)?.slice(0, 500));
    }
    throw new JsonRpcError(e.code, e.message, e.data, method);
  }
  if (!("result" in msg)) throw new TransportError(`${method}: response has neither result nor error`);
  return msg.result;
}

let counter = 0;
const nextId = (): number => (counter = (counter + 1) % Number.MAX_SAFE_INTEGER);

// ---------------------------------------------------------------------------------------------
// HTTP

export interface HttpTransportOptions {
  /** fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Abort a call after this many milliseconds (default: no timeout). */
  timeoutMs?: number;
}

/** One POST per call to `url`. */
export function httpTransport(url: string, options: HttpTransportOptions = {}): Transport {
  const doFetch = options.fetch ?? globalThis.fetch;
  if (typeof doFetch !== "function") throw new TransportError("no fetch implementation: pass { fetch }");
  return {
    async request(method, params) {
      const id = nextId();
      const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: encodeParams(params) });
      const signal = options.timeoutMs !== undefined ? AbortSignal.timeout(options.timeoutMs) : undefined;
      let res: Response;
      let text: string;
      try {
        res = await doFetch(url, {
          method: "POST",
          headers: { ...options.headers, "Content-Type": "application/json" },
          body,
          signal,
        });
        text = await res.text();
      } catch (error) {
        throw new TransportError(`${method}: request to ${url} failed: ${(error as Error).message}`, undefined, undefined, {
          cause: error,
        });
      }
      let msg: unknown;
      try {
        msg = JSON.parse(text);
      } catch {
        throw new TransportError(`${method}: HTTP ${res.status}, body is not JSON`, res.status, text.slice(0, 500));
      }
      if (!isObject(msg)) throw new TransportError(`${method}: HTTP ${res.status}, not a JSON-RPC response`, res.status, text.slice(0, 500));
      // A request the server could not attribute (e.g. too large) is answered with id null; still surface its error.
      if (msg.id !== id && !(msg.id === null && msg.error !== undefined)) {
        throw new TransportError(`${method}: response id ${JSON.stringify(msg.id)} does not match request id ${id}`, res.status);
      }
      return settle(method, msg);
    },
    async close() {},
  };
}

// ---------------------------------------------------------------------------------------------
// WebSocket

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

export interface WebSocketTransportOptions {
  /** WebSocket implementation (default: `globalThis.WebSocket`). */
  WebSocket?: WebSocketConstructor;
  /** Reject a call unanswered after this many milliseconds (default: no timeout). */
  timeoutMs?: number;
}

/** A server-sent notification, e.g. `eth_subscription` with `{ subscription, result }`. */
export type NotificationListener = (method: string, params: unknown) => void;

export interface WebSocketTransport extends Transport {
  /** Listens for notifications (messages without an id); returns a function that stops listening. */
  onNotification(listener: NotificationListener): () => void;
}

const OPEN = 1;

/**
 * One connection, opened on the first call and reopened by the next call after it drops. Calls pending when the
 * connection drops reject with TransportError; subscriptions do not survive a reconnect.
 */
export function webSocketTransport(url: string, options: WebSocketTransportOptions = {}): WebSocketTransport {
  const Impl = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (typeof Impl !== "function") {
    throw new TransportError("no WebSocket implementation: pass { WebSocket } (e.g. from the 'ws' package on Node 20)");
  }
  const pending = new Map<number, { method: string; resolve(v: unknown): void; reject(e: unknown): void; timer?: ReturnType<typeof setTimeout> }>();
  const listeners = new Set<NotificationListener>();
  let socket: Promise<SocketLike> | undefined;
  let closed = false;

  const failAll = (error: Error): void => {
    for (const [id, p] of pending) {
      if (p.timer !== undefined) clearTimeout(p.timer);
      pending.delete(id);
      p.reject(error);
    }
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
        for (const l of listeners) l(m.method, m.params);
        continue;
      }
      const p = typeof m.id === "number" ? pending.get(m.id) : undefined;
      if (!p) continue;
      pending.delete(m.id as number);
      if (p.timer !== undefined) clearTimeout(p.timer);
      try {
        p.resolve(settle(p.method, m));
      } catch (error) {
        p.reject(error);
      }
    }
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
        socket = undefined;
        const why = event?.code !== undefined ? ` (code ${event.code}${event.reason ? `: ${event.reason}` : ""})` : "";
        if (!opened) reject(new TransportError(`cannot connect to ${url}${why}`));
        failAll(new TransportError(`connection to ${url} closed${why}`));
      };
    });

  return {
    async request(method, params) {
      if (closed) throw new TransportError("transport is closed");
      const ws = await (socket ??= connect().catch((error: unknown) => {
        socket = undefined;
        throw error;
      }));
      if (ws.readyState !== OPEN) throw new TransportError(`connection to ${url} is not open`);
      const id = nextId();
      return new Promise<unknown>((resolve, reject) => {
        const entry: { method: string; resolve(v: unknown): void; reject(e: unknown): void; timer?: ReturnType<typeof setTimeout> } = {
          method,
          resolve,
          reject,
        };
        if (options.timeoutMs !== undefined) {
          entry.timer = setTimeout(() => {
            pending.delete(id);
            reject(new TransportError(`${method}: no answer within ${options.timeoutMs} ms`));
          }, options.timeoutMs);
        }
        pending.set(id, entry);
        try {
          ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params: encodeParams(params) }));
        } catch (error) {
          pending.delete(id);
          if (entry.timer !== undefined) clearTimeout(entry.timer);
          reject(new TransportError(`${method}: send failed: ${(error as Error).message}`, undefined, undefined, { cause: error }));
        }
      });
    },
    onNotification(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      const current = socket;
      socket = undefined;
      failAll(new TransportError("transport is closed"));
      if (!current) return;
      const ws = await current.catch(() => undefined);
      if (!ws || ws.readyState > OPEN) return;
      await new Promise<void>((resolve) => {
        ws.onclose = () => resolve();
        ws.close(1000, "client closed");
      });
    },
  };
}
