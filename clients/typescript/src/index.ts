// @evm-node/client: a typed JSON-RPC client for evm-node, generated from its openrpc.json.
//
//   import { createClient, httpTransport } from "@evm-node/client";
//   const client = createClient(httpTransport("http://127.0.0.1:8545"));
//   const block = await client.eth_getBlockByNumber("0x0", false);

export * from "./generated/types.js";
export * from "./generated/client.js";
export { ErrorCodes, JsonRpcError, TransportError, isJsonRpcError } from "./errors.js";
export {
  encodeParams,
  httpTransport,
  webSocketTransport,
  type HttpTransportOptions,
  type NotificationListener,
  type Transport,
  type WebSocketConstructor,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from "./transport.js";
