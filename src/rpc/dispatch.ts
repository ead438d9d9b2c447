// Method lookup, parameter validation and error normalisation. Knows nothing
// about JSON-RPC framing (envelope.ts) or sockets (transport/).

import { toRpcError } from './domain-errors.js';
import { internalError, invalidParams, methodNotFound } from './errors.js';

/** Console-compatible, so `console` works until a real logger exists. */
export interface Logger {
  error(message: string, ...meta: unknown[]): void;
  warn(message: string, ...meta: unknown[]): void;
}

export interface CallContext {
  readonly transport: 'http' | 'ws';
  readonly remoteAddress?: string;
  /** Per-connection state for stateful transports (e.g. WebSocket subscriptions); typed by its owner. */
  readonly connection?: unknown;
}

export interface MethodEntry {
  /** Returns a human-readable reason when the params are unacceptable, else null. */
  validate(params: unknown[]): string | null;
  handle(params: unknown[], ctx: CallContext): Promise<unknown>;
}

export type MethodTable = ReadonlyMap<string, MethodEntry> | Readonly<Record<string, MethodEntry>>;

/** Resolves with a JSON-ready result or rejects with an RpcError — never anything else. */
export type Dispatcher = (method: string, params: unknown[], ctx: CallContext) => Promise<unknown>;

function toMap(table: MethodTable): ReadonlyMap<string, MethodEntry> {
  if (table instanceof Map) return table;
  // Own keys only: a plain-object lookup would otherwise find "constructor", "__proto__", …
  return new Map(Object.entries(table as Readonly<Record<string, MethodEntry>>));
}

export function createDispatcher(table: MethodTable, log: Logger): Dispatcher {
  const methods = toMap(table);
  return async (method, params, ctx) => {
    const entry = methods.get(method);
    if (!entry) throw methodNotFound(method);
    try {
      const problem = entry.validate(params);
      if (problem !== null) throw invalidParams(problem);
      return await entry.handle(params, ctx);
    } catch (err) {
      const answer = toRpcError(err);
      if (answer !== undefined) throw answer;
      log.error(`unhandled error in ${method}`, err instanceof Error ? err.stack ?? err.message : err);
      throw internalError();
    }
  };
}
