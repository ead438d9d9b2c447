// Method lookup, parameter validation and error normalisation. Knows nothing
// about JSON-RPC framing (envelope.ts) or sockets (transport/).

import { toRpcError } from './domain-errors.js';
import { internalError, methodNotFound } from './errors.js';

/** Console-compatible, so `console` works until a real logger exists. */
export interface Logger {
  error(message: string, ...meta: unknown[]): void;
  warn(message: string, ...meta: unknown[]): void;
}

export interface CallContext {
  readonly transport: 'http' | 'ws';
  /** Per-connection state for stateful transports (e.g. WebSocket subscriptions); typed by its owner. */
  readonly connection?: unknown;
  /** Aborts once nobody waits for the answer (the HTTP client disconnected, the WebSocket closed): long work stops then. */
  readonly signal?: AbortSignal;
}

export interface MethodEntry {
  /** Checks the params (an RpcError -32602 when they are unacceptable) and runs the method. */
  invoke(params: unknown[], ctx: CallContext): Promise<unknown>;
}

export type MethodTable = ReadonlyMap<string, MethodEntry> | Readonly<Record<string, MethodEntry>>;

/** Resolves with a JSON-ready result or rejects with an RpcError — never anything else. */
export type Dispatcher = (method: string, params: unknown[], ctx: CallContext) => Promise<unknown>;

function toMap(table: MethodTable): ReadonlyMap<string, MethodEntry> {
  if (table instanceof Map) return table;
  // Own keys only: a plain-object lookup would otherwise find "constructor", "__proto__", …
  return new Map(Object.entries(table as Readonly<Record<string, MethodEntry>>));
}

export interface DispatcherOptions {
  /** Runs each call; the storage gate holds calls back while the database re-opens. */
  gate?: { run<T>(task: () => Promise<T>): Promise<T> };
}

export function createDispatcher(table: MethodTable, log: Logger, { gate }: DispatcherOptions = {}): Dispatcher {
  const methods = toMap(table);
  return async (method, params, ctx) => {
    const entry = methods.get(method);
    if (!entry) throw methodNotFound(method);
    try {
      return await (gate === undefined ? entry.invoke(params, ctx) : gate.run(() => entry.invoke(params, ctx)));
    } catch (err) {
      const answer = toRpcError(err);
      if (answer !== undefined) throw answer;
      log.error(`unhandled error in ${method}`, err instanceof Error ? err.stack ?? err.message : err);
      throw internalError();
    }
  };
}
