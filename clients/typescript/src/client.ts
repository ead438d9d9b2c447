// The client object: every contract method as `client.<wire name>(...params)` (generated), the two block reads
// narrowed by their details flag, `request` by name, typed batches, and typed subscriptions on a WebSocket.

import { runBatch, type BatchCall, type BatchResults } from "./batch.js";
import { contractMethods, type ContractMethods, type MethodName, type MethodParams, type MethodResult } from "./generated/client.js";
import type {
  Block,
  EthGetBlockByHashParams,
  EthGetBlockByHashResult,
  EthGetBlockByNumberParams,
  EthGetBlockByNumberResult,
  SubscriptionKind,
} from "./generated/types.js";
import { subscribe, type SubscribeOptions, type SubscriptionEvents, type Unsubscribe } from "./subscriptions.js";
import type { SubscribingTransport, Transport } from "./transport.js";

/** `R` (a block result) with `transactions` as full objects when `Full` is true, as hashes when false. */
type WithTransactions<R, Full extends boolean> = R extends { transactions: infer List }
  ? Omit<R, "transactions"> & { transactions: Full extends true ? Extract<List, object[]> : Extract<List, string[]> }
  : R;

/** A block whose `transactions` are full Transaction objects (`Full` true) or hashes (`Full` false). */
export type BlockWithTransactions<Full extends boolean> = WithTransactions<Block, Full>;

/** The methods whose result the details flag decides more precisely than the contract's result schema can say. */
interface NarrowedMethods {
  /** `eth_getBlockByHash`, its result narrowed by the flag: `true` → full transactions, `false` → hashes. */
  eth_getBlockByHash<Full extends EthGetBlockByHashParams[1]>(
    blockHash: EthGetBlockByHashParams[0],
    transactionDetailsFlag: Full,
  ): Promise<WithTransactions<EthGetBlockByHashResult, Full>>;
  /** `eth_getBlockByNumber`, its result narrowed by the flag: `true` → full transactions, `false` → hashes. */
  eth_getBlockByNumber<Full extends EthGetBlockByNumberParams[1]>(
    blockNumber: EthGetBlockByNumberParams[0],
    transactionDetailsFlag: Full,
  ): Promise<WithTransactions<EthGetBlockByNumberResult, Full>>;
}

interface ClientBase<T extends Transport> {
  /** The transport every call goes through. */
  readonly transport: T;
  /** Calls any method by name, typed like the members. */
  request<M extends MethodName>(method: M, ...params: MethodParams<M>): Promise<MethodResult<M>>;
  /**
   * Sends `calls` as one JSON-RPC batch (`[{ method, params }, …]`) and resolves with one outcome per call, in
   * order and typed by its method: `{ ok: true, result }` or `{ ok: false, error }`. Rejects only when the batch
   * got no answer at all (TransportError). An empty batch resolves with `[]` without a request.
   */
  batch<const Calls extends readonly BatchCall[] | []>(calls: Calls): Promise<BatchResults<Calls>>;
}

interface SubscribingClient {
  /**
   * `eth_subscribe` with a typed listener: `subscribe("newHeads", (head) => …)`, `subscribe("logs", onLog, { filter })`.
   * Resolves with the function that unsubscribes. Survives reconnects, and by default replays what a drop
   * cost newHeads and logs listeners (see SubscribeOptions).
   */
  subscribe<K extends SubscriptionKind>(kind: K, listener: (event: SubscriptionEvents[K]) => void, options?: SubscribeOptions<K>): Promise<Unsubscribe>;
}

/** Every method of the contract over one transport; `subscribe` too when the transport holds subscriptions (WebSocket). */
export type Client<T extends Transport = Transport> = Omit<ContractMethods, keyof NarrowedMethods> &
  NarrowedMethods &
  ClientBase<T> &
  (T extends SubscribingTransport ? SubscribingClient : unknown);

function isSubscribing(transport: Transport): transport is SubscribingTransport {
  return typeof (transport as Partial<SubscribingTransport>).subscribe === "function";
}

/** A client over `transport` (see `httpTransport`, `webSocketTransport`, and `viemTransport` in "@evm-node/client/viem"). */
export function createClient<T extends Transport>(transport: T): Client<T> {
  const methods = contractMethods(transport);
  // The same functions: only their types are narrower.
  const narrowed: NarrowedMethods = {
    eth_getBlockByHash: methods.eth_getBlockByHash as NarrowedMethods["eth_getBlockByHash"],
    eth_getBlockByNumber: methods.eth_getBlockByNumber as NarrowedMethods["eth_getBlockByNumber"],
  };
  const base: Omit<ContractMethods, keyof NarrowedMethods> & NarrowedMethods & ClientBase<T> = {
    ...methods,
    ...narrowed,
    transport,
    request: (method, ...params) => transport.request(method, params) as never,
    batch: (calls) => runBatch(transport, calls) as never,
  };
  if (!isSubscribing(transport)) return base as Client<T>;
  const subscribing: SubscribingClient = {
    subscribe: (kind, listener, options) => subscribe(transport, kind, listener, options),
  };
  return { ...base, ...subscribing } as Client<T>;
}
