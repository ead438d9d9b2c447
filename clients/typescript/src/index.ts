// @evm-node/client: a typed JSON-RPC client for evm-node, generated from its openrpc.json.
//
//   import { createClient, httpTransport } from "@evm-node/client";
//   const client = createClient(httpTransport("http://127.0.0.1:8545"));
//   const block = await client.eth_getBlockByNumber("0x0", false);
//
// The viem extension is a separate entry: "@evm-node/client/viem".

export * from "./generated/types.js";
export * from "./generated/client.js";
export type { BatchCall, BatchOutcome, BatchResults } from "./batch.js";
export { createClient, type BlockWithTransactions, type Client } from "./client.js";
export { ErrorCodes, JsonRpcError, TransportError, isJsonRpcError } from "./errors.js";
export { httpTransport, type HttpTransportOptions } from "./http.js";
export { encodeParams } from "./jsonrpc.js";
export type { LogSubscriptionFilter, SubscribeOptions, SubscriptionEvent, SubscriptionEvents, Unsubscribe } from "./subscriptions.js";
export type {
  RawCall,
  RawOutcome,
  SubscribingTransport,
  SubscriptionHandlers,
  Transport,
  TransportSubscription,
} from "./transport.js";
export {
  webSocketTransport,
  type NotificationListener,
  type ReconnectOptions,
  type WebSocketConstructor,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from "./websocket.js";
