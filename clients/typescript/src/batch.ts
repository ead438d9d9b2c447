// Typed JSON-RPC batches: many calls in one message, each answered (or failed) on its own.

import type { JsonRpcError, TransportError } from "./errors.js";
import type { MethodName, MethodParams, MethodResult } from "./generated/client.js";
import type { RawOutcome, Transport } from "./transport.js";

/** One call of a batch: a method and its params (which may be left out when the method takes none). */
export type BatchCall = {
  [M in MethodName]: [] extends MethodParams<M> ? { method: M; params?: MethodParams<M> } : { method: M; params: MethodParams<M> };
}[MethodName];

/** How one call of a batch ended: its result, or the error the node answered it with. */
export type BatchOutcome<T> = { ok: true; result: T } | { ok: false; error: JsonRpcError | TransportError };

/** The outcomes of `Calls`, position by position, each typed by its method. */
export type BatchResults<Calls extends readonly BatchCall[]> = {
  -readonly [I in keyof Calls]: Calls[I] extends { method: infer M extends MethodName } ? BatchOutcome<MethodResult<M>> : never;
};

/**
 * Sends `calls` as one batch when the transport can (`transport.batch`), else as concurrent requests (a viem
 * transport then batches them itself when set up to). Resolves with one outcome per call, in order.
 */
export async function runBatch(transport: Transport, calls: readonly { method: string; params?: readonly unknown[] }[]): Promise<RawOutcome[]> {
  const raw = calls.map((c) => ({ method: c.method, params: c.params ?? [] }));
  if (transport.batch) return transport.batch(raw);
  return Promise.all(
    raw.map((c) =>
      transport.request(c.method, c.params).then(
        (result): RawOutcome => ({ ok: true, result }),
        (error: unknown): RawOutcome => ({ ok: false, error: error as JsonRpcError | TransportError }),
      ),
    ),
  );
}
