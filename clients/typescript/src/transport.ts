// What a transport is: how calls, batches and subscriptions travel to a node. The implementations are
// http.ts and websocket.ts (and viem.ts's adapter over a viem client).

import type { JsonRpcError, TransportError } from "./errors.js";

/** Carries calls to a node. `request` resolves with `result` or rejects with JsonRpcError / TransportError. */
export interface Transport {
  request(method: string, params: readonly unknown[]): Promise<unknown>;
  /**
   * Sends `calls` as one JSON-RPC batch and settles each on its own, in call order; rejects only when no answer
   * came at all. A transport without it gets the calls as concurrent requests (see `Client.batch`).
   */
  batch?(calls: readonly RawCall[]): Promise<RawOutcome[]>;
  /** Releases connections (a no-op for HTTP). */
  close(): Promise<void>;
}

/** One call of a batch, untyped (see `BatchCall` for the typed form). */
export interface RawCall {
  readonly method: string;
  readonly params: readonly unknown[];
}

/** How one call of a batch ended. */
export type RawOutcome = { ok: true; result: unknown } | { ok: false; error: JsonRpcError | TransportError };

/** What a transport tells one `eth_subscribe` subscription. */
export interface SubscriptionHandlers {
  /** The node answered `eth_subscribe` with `id`: once when subscribed, and again after each reconnect. */
  onOpen(id: string): void;
  /** The `result` of a notification for the current id. */
  onEvent(result: unknown): void;
  /** The connection dropped; the transport re-subscribes when it is back (then `onOpen` again). */
  onDrop(error: Error): void;
  /** The subscription is over for good: re-subscribing was refused, or reconnecting gave up. */
  onEnd(error: Error): void;
}

/** A subscription as a transport holds it. */
export interface TransportSubscription {
  /** Sends `eth_unsubscribe` for the current id (when connected) and forgets the subscription. */
  close(): Promise<void>;
}

/** A transport that can hold `eth_subscribe` subscriptions across reconnects (WebSocket). */
export interface SubscribingTransport extends Transport {
  /**
   * Sends `eth_subscribe` with `params` and keeps the subscription alive: after a reconnect it is sent again and
   * `handlers.onOpen` gets the new id. Resolves once the first id arrived (after `onOpen`); rejects when the node
   * refused it.
   */
  subscribe(params: readonly unknown[], handlers: SubscriptionHandlers): Promise<TransportSubscription>;
}
