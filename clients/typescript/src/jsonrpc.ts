// JSON-RPC 2.0 framing shared by the transports: request ids, params on the wire, answers to results or errors.

import { JsonRpcError, TransportError } from "./errors.js";
import type { RawOutcome } from "./transport.js";

/**
 * Positional params as they go on the wire: trailing `undefined` entries are dropped (an omitted optional param);
 * an `undefined` before a given param becomes `null`, as JSON.stringify would make it.
 */
export function encodeParams(params: readonly unknown[]): unknown[] {
  let end = params.length;
  while (end > 0 && params[end - 1] === undefined) end--;
  return params.slice(0, end).map((p) => (p === undefined ? null : p));
}

/** A response message as it may arrive: every member unchecked. */
export interface ResponseMessage {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: unknown;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The result of a response message, or the JsonRpcError it carries. */
export function settle(method: string, msg: ResponseMessage): unknown {
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

/** `settle` as an outcome instead of a throw. */
export function outcome(method: string, msg: ResponseMessage): RawOutcome {
  try {
    return { ok: true, result: settle(method, msg) };
  } catch (error) {
    return { ok: false, error: error as JsonRpcError | TransportError };
  }
}

let counter = 0;
/** A request id unique within this process (ids only need to be unique per connection). */
export const nextId = (): number => (counter = (counter % Number.MAX_SAFE_INTEGER) + 1);

/** The request message for one call. */
export function requestMessage(id: number, method: string, params: readonly unknown[]): { jsonrpc: "2.0"; id: number; method: string; params: unknown[] } {
  return { jsonrpc: "2.0", id, method, params: encodeParams(params) };
}
