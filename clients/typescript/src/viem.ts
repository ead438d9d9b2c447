// "@evm-node/client/viem": the SDK where viem users already are.
//
//   import { createPublicClient, webSocket } from "viem";
//   import { evmNodeActions } from "@evm-node/client/viem";
//   const client = createPublicClient({ transport: webSocket(url) }).extend(evmNodeActions());
//   await client.evmMine();                                  // the methods viem has no action for
//   const stop = await client.subscribe("newHeads", (head) => console.log(head.number));
//   const block = await client.evmNode.eth_getBlockByNumber("latest", true); // the whole contract
//
// Only types come from viem (an optional peer dependency): the calls go through the viem client handed in.

import type { Account, Chain, Client as ViemClient, RpcSchema, Transport as ViemTransport } from "viem";
import type { SocketRpcClient } from "viem/utils";
import { createClient, type Client } from "./client.js";
import { JsonRpcError, TransportError } from "./errors.js";
import { actionsViemLacks, type ActionsViemLacks } from "./generated/viem.js";
import { encodeParams, isObject } from "./jsonrpc.js";
import type { SubscribingTransport, SubscriptionHandlers, TransportSubscription } from "./transport.js";

export { methodsViemLacks, type ActionsViemLacks, type EvmNodeRpcSchema } from "./generated/viem.js";

/** Any viem client (public, wallet, test, or `createClient`), whatever its chain, account or RPC schema. */
export type ViemClientLike = Pick<ViemClient<ViemTransport, Chain | undefined, Account | undefined, RpcSchema | undefined>, "request" | "transport">;

type LooseRequest = (args: { method: string; params?: unknown }) => Promise<unknown>;

/**
 * A viem error as the SDK's: the node's JSON-RPC error (found down viem's `cause` chain, as the node sent it) as
 * JsonRpcError, anything else (HTTP failure, timeout, closed socket) as TransportError; viem's error is the `cause`.
 */
function fromViemError(method: string, error: unknown): JsonRpcError | TransportError {
  for (let e: unknown = error; isObject(e); e = e.cause) {
    if (!(e instanceof Error) && typeof e.code === "number" && typeof e.message === "string") {
      return new JsonRpcError(e.code, e.message, e.data, method, { cause: error });
    }
  }
  const status = (error as { status?: unknown }).status;
  return new TransportError(`${method}: ${error instanceof Error ? error.message : String(error)}`, typeof status === "number" ? status : undefined, undefined, {
    cause: error,
  });
}

/** A notification or an answer, as viem's socket client hands it on. */
interface SocketMessage {
  id?: unknown;
  method?: unknown;
  params?: { subscription?: unknown; result?: unknown };
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/**
 * `eth_subscribe` on viem's socket client. viem re-sends the subscription after it reconnects, to the same
 * response handler: each answer carrying an id is a (re)subscribe, hence `onOpen`. Each drop reaches `onError`.
 */
async function subscribeOnSocket(rpc: SocketRpcClient<object>, params: readonly unknown[], handlers: SubscriptionHandlers): Promise<TransportSubscription> {
  let id: string | undefined;
  let closed = false;
  let connected = false;
  await new Promise<void>((resolve, reject) => {
    let first = true;
    rpc.request({
      body: { method: "eth_subscribe", params: encodeParams(params) },
      onResponse: (raw) => {
        const message = raw as SocketMessage;
        if (message.method === "eth_subscription") {
          if (!closed) handlers.onEvent(message.params?.result);
          return;
        }
        if (message.error !== undefined || typeof message.result !== "string") {
          const e = message.error;
          const error =
            isObject(e) && typeof e.code === "number" && typeof e.message === "string"
              ? new JsonRpcError(e.code, e.message, e.data, "eth_subscribe")
              : new TransportError(`eth_subscribe: the node answered ${JSON.stringify(message.result)}, not an id`);
          if (first) reject(error);
          else handlers.onEnd(error);
          first = false;
          return;
        }
        id = message.result;
        connected = true;
        if (closed) {
          rpc.request({ body: { method: "eth_unsubscribe", params: [id] }, onResponse: () => undefined });
          return;
        }
        handlers.onOpen(id);
        if (first) resolve();
        first = false;
      },
      onError: (error) => {
        const failure = fromViemError("eth_subscribe", error);
        if (first) {
          first = false;
          reject(failure);
          return;
        }
        connected = false;
        if (!closed) handlers.onDrop(failure);
      },
    });
  });
  return {
    async close() {
      if (closed || id === undefined) return;
      closed = true;
      if (!connected) {
        // Disconnected: keep viem from sending it again when it reconnects; the node dropped it with the socket.
        rpc.subscriptions.delete(id);
        return;
      }
      const response = (await rpc.requestAsync({ body: { method: "eth_unsubscribe", params: [id] } })) as SocketMessage;
      if (isObject(response.error)) throw new JsonRpcError(Number(response.error.code), String(response.error.message), response.error.data, "eth_unsubscribe");
    },
  };
}

/**
 * The SDK's Transport over a viem client: calls go through `client.request` (so viem's retries, batching and
 * connection are used); `subscribe` needs viem's `webSocket` transport and rejects with TransportError otherwise.
 * `createClient(viemTransport(client))` is the SDK's typed client on viem's connection. `close` is a no-op: the
 * connection is the viem client's.
 */
export function viemTransport(client: ViemClientLike): SubscribingTransport {
  const request = client.request as unknown as LooseRequest;
  return {
    async request(method, params) {
      try {
        return await request({ method, params: encodeParams(params) });
      } catch (error) {
        throw fromViemError(method, error);
      }
    },
    async subscribe(params, handlers) {
      const getRpcClient = (client.transport as { getRpcClient?: () => Promise<SocketRpcClient<object>> }).getRpcClient;
      if (typeof getRpcClient !== "function") {
        throw new TransportError(`subscriptions need viem's webSocket transport; this client's transport is "${client.transport.type}"`);
      }
      return subscribeOnSocket(await getRpcClient(), params, handlers);
    },
    async close() {},
  };
}

/**
 * What `client.extend(evmNodeActions())` adds to a viem client. (A mapped type, not the interface itself: viem's
 * `extend` takes only object types that are indexable by string, which interfaces are not.)
 */
export type EvmNodeActions = Pick<ActionsViemLacks, keyof ActionsViemLacks> & {
  /** Typed `eth_subscribe` that survives viem's reconnects (see the SDK's `Client.subscribe`); needs viem's `webSocket` transport. */
  subscribe: Client<SubscribingTransport>["subscribe"];
  /** The whole contract, typed, over this viem client: `client.evmNode.eth_getBlockByNumber("latest", true)`, `client.evmNode.batch([…])`. */
  evmNode: Client<SubscribingTransport>;
};

/**
 * A viem extension: `createPublicClient({ transport }).extend(evmNodeActions())`. Adds one action per contract
 * method viem has no action for (`methodsViemLacks`, named like the SDK's functions: `txpoolStatus`, `evmMine`, …),
 * typed `subscribe`, and `evmNode`, the SDK's client for every method. Errors are the SDK's (JsonRpcError,
 * TransportError) with viem's error as `cause`.
 */
export function evmNodeActions(): (client: ViemClientLike) => EvmNodeActions {
  return (client) => {
    const evmNode = createClient(viemTransport(client));
    return { ...actionsViemLacks(evmNode.transport), subscribe: evmNode.subscribe, evmNode };
  };
}
