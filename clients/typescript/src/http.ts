// The HTTP transport: one POST per call or per batch, with the platform's fetch.

import { TransportError } from "./errors.js";
import { isObject, nextId, outcome, requestMessage, settle, type ResponseMessage } from "./jsonrpc.js";
import type { RawCall, RawOutcome, Transport } from "./transport.js";

export interface HttpTransportOptions {
  /** fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Abort a call (or a batch) after this many milliseconds (default: no timeout). */
  timeoutMs?: number;
}

/** One POST per call to `url`; `batch` sends one POST holding a JSON-RPC batch. */
export function httpTransport(url: string, options: HttpTransportOptions = {}): Transport {
  const doFetch = options.fetch ?? globalThis.fetch;
  if (typeof doFetch !== "function") throw new TransportError("no fetch implementation: pass { fetch }");

  /** POSTs `body` and parses the answer as JSON; `what` names the call(s) in errors. */
  async function post(what: string, body: unknown): Promise<{ status: number; text: string; msg: unknown }> {
    const signal = options.timeoutMs !== undefined ? AbortSignal.timeout(options.timeoutMs) : undefined;
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, {
        method: "POST",
        headers: { ...options.headers, "Content-Type": "application/json" },
        body: JSON.stringify(body),
        signal,
      });
      text = await res.text();
    } catch (error) {
      throw new TransportError(`${what}: request to ${url} failed: ${(error as Error).message}`, undefined, undefined, { cause: error });
    }
    try {
      return { status: res.status, text, msg: JSON.parse(text) as unknown };
    } catch {
      throw new TransportError(`${what}: HTTP ${res.status}, body is not JSON`, res.status, text.slice(0, 500));
    }
  }

  return {
    async request(method, params) {
      const id = nextId();
      const { status, text, msg } = await post(method, requestMessage(id, method, params));
      if (!isObject(msg)) throw new TransportError(`${method}: HTTP ${status}, not a JSON-RPC response`, status, text.slice(0, 500));
      // A request the server could not attribute (e.g. too large) is answered with id null; still surface its error.
      if (msg.id !== id && !(msg.id === null && msg.error !== undefined)) {
        throw new TransportError(`${method}: response id ${JSON.stringify(msg.id)} does not match request id ${id}`, status);
      }
      return settle(method, msg);
    },

    async batch(calls: readonly RawCall[]): Promise<RawOutcome[]> {
      if (calls.length === 0) return [];
      const ids = calls.map(() => nextId());
      const what = `batch of ${calls.length}`;
      const { status, text, msg } = await post(what, calls.map((c, i) => requestMessage(ids[i]!, c.method, c.params)));
      // The whole batch refused (too large, unreadable): one error with id null answers every call.
      if (isObject(msg) && msg.id === null && msg.error !== undefined) return calls.map((c) => outcome(c.method, msg));
      if (!Array.isArray(msg)) throw new TransportError(`${what}: HTTP ${status}, not a JSON-RPC batch response`, status, text.slice(0, 500));
      const byId = new Map<unknown, ResponseMessage>();
      for (const m of msg) if (isObject(m)) byId.set(m.id, m);
      return calls.map((c, i) => {
        const m = byId.get(ids[i]);
        if (m === undefined) return { ok: false, error: new TransportError(`${c.method}: the batch response has no answer for it`, status) };
        return outcome(c.method, m);
      });
    },

    async close() {},
  };
}
