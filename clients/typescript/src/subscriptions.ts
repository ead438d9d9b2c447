// Typed eth_subscribe: `subscribe("newHeads", onHead)` → an unsubscribe function. The transport keeps the
// subscription alive across reconnects; this module makes up for what a drop cost: after every (re)subscribe it
// replays the heads and logs the listener has not seen, from the chain, before letting live events through.

import { runBatch } from "./batch.js";
import type { Block, BlockHeader, FilterOptions, Hash32, Log, SubscriptionKind } from "./generated/types.js";
import type { SubscribingTransport, SubscriptionHandlers, Transport } from "./transport.js";

/** What each subscription kind delivers. */
export interface SubscriptionEvents {
  newHeads: BlockHeader;
  logs: Log;
  newPendingTransactions: Hash32;
}

export type SubscriptionEvent<K extends SubscriptionKind> = SubscriptionEvents[K];

/** The criteria a `logs` subscription takes. */
export type LogSubscriptionFilter = Pick<FilterOptions, "address" | "topics">;

export interface SubscribeOptions<K extends SubscriptionKind> {
  /** `logs` only: which logs (address and topics criteria, as eth_getLogs); absent: every log. */
  filter?: K extends "logs" ? LogSubscriptionFilter : never;
  /**
   * newHeads and logs: after each (re)subscribe, deliver first what happened since the last event delivered
   * (or since `subscribe` was called), read from the chain (default true). newPendingTransactions has nothing
   * to replay: what a drop cost it is gone.
   */
  catchUp?: boolean;
  /**
   * Told what may have cost events, or ended the subscription: a drop when nothing replays it, a failed replay,
   * a refused re-subscribe, a transport that gave up reconnecting (the last two end the subscription). Also
   * gets what the listener throws; without `onError` that is rethrown (asynchronously).
   */
  onError?(error: Error): void;
}

/** Ends a subscription: no event reaches the listener after it is called. */
export type Unsubscribe = () => Promise<void>;

/** Where an event sits in the chain: its block, and for a log its index in the block (absent: the whole block). */
interface Position {
  block: bigint;
  index?: number;
}

function isAfter(a: Position, b: Position): boolean {
  if (a.block !== b.block) return a.block > b.block;
  return (a.index ?? Infinity) > (b.index ?? Infinity);
}

const hex = (n: bigint): `0x${string}` => `0x${n.toString(16)}`;

async function headNumber(transport: Transport): Promise<bigint> {
  return BigInt((await transport.request("eth_blockNumber", [])) as string);
}

/** How a kind's missed events are read back from the chain. */
interface Replay<E> {
  position(event: E): Position;
  /** The events after `from`, up to and including block `to`, in chain order, a chunk at a time. */
  missed(transport: Transport, from: Position, to: bigint, filter: LogSubscriptionFilter | undefined): AsyncIterable<E[]>;
}

/** A block as newHeads pushes it: without its body (as the node, and geth, make the header). */
function toHeader(block: Block): BlockHeader {
  const { size, totalDifficulty, transactions, uncles, withdrawals, ...header } = block;
  return header;
}

const HEADS_PER_BATCH = 50n;
const LOG_BLOCKS_PER_QUERY = 1000n;

const headsReplay: Replay<BlockHeader> = {
  position: (head) => ({ block: BigInt(head.number) }),
  async *missed(transport, from, to) {
    for (let first = from.block + 1n; first <= to; first += HEADS_PER_BATCH) {
      const last = first + HEADS_PER_BATCH - 1n < to ? first + HEADS_PER_BATCH - 1n : to;
      const calls = [];
      for (let n = first; n <= last; n++) calls.push({ method: "eth_getBlockByNumber", params: [hex(n), false] });
      const headers: BlockHeader[] = [];
      for (const outcome of await runBatch(transport, calls)) {
        if (!outcome.ok) throw outcome.error;
        if (outcome.result === null) break; // the chain is shorter than it was a moment ago (reverted)
        headers.push(toHeader(outcome.result as Block));
      }
      yield headers;
      if (headers.length < calls.length) return;
    }
  },
};

/** Only the criteria: a caller's object may carry more, which eth_subscribe and eth_getLogs would refuse. */
function criteria(filter: LogSubscriptionFilter | undefined): LogSubscriptionFilter {
  const out: LogSubscriptionFilter = {};
  if (filter?.address !== undefined) out.address = filter.address;
  if (filter?.topics !== undefined) out.topics = filter.topics;
  return out;
}

const logsReplay: Replay<Log> = {
  position: (log) => ({ block: BigInt(log.blockNumber), index: Number(log.logIndex) }),
  async *missed(transport, from, to, filter) {
    for (let first = from.index === undefined ? from.block + 1n : from.block; first <= to; first += LOG_BLOCKS_PER_QUERY) {
      const last = first + LOG_BLOCKS_PER_QUERY - 1n < to ? first + LOG_BLOCKS_PER_QUERY - 1n : to;
      const found = (await transport.request("eth_getLogs", [{ ...criteria(filter), fromBlock: hex(first), toBlock: hex(last) }])) as Log[];
      yield found.filter((log) => isAfter(logsReplay.position(log), from));
    }
  },
};

const replays = {
  newHeads: headsReplay,
  logs: logsReplay,
  newPendingTransactions: undefined,
} satisfies { [K in SubscriptionKind]: Replay<SubscriptionEvents[K]> | undefined };

/**
 * Subscribes `listener` to `kind` over `transport`. Resolves once the node accepted the subscription, with the
 * function that ends it. With catch-up (newHeads and logs, by default) the listener sees every event after the
 * head at the call, each once and in chain order, also across reconnects (see SubscribeOptions.catchUp).
 */
export async function subscribe<K extends SubscriptionKind>(
  transport: SubscribingTransport,
  kind: K,
  listener: (event: SubscriptionEvents[K]) => void,
  options: SubscribeOptions<K> = {},
): Promise<Unsubscribe> {
  type Event = SubscriptionEvents[K];
  const replay = options.catchUp === false ? undefined : (replays[kind] as Replay<Event> | undefined);
  const filter = options.filter as LogSubscriptionFilter | undefined;
  /** The last event delivered (or the head at the call): replays start after it. */
  let cursor: Position = { block: replay ? await headNumber(transport) : 0n };
  /** Counts (re)subscribes and drops: a replay that one of them overtook stops. */
  let round = 0;
  /** Live events held while a replay runs. */
  let held: Event[] | undefined;
  let ended = false;

  const report = (error: Error): void => options.onError?.(error);
  const deliver = (event: Event): void => {
    if (replay) cursor = replay.position(event);
    try {
      listener(event);
    } catch (error) {
      if (!options.onError) queueMicrotask(() => { throw error; });
      else options.onError(error as Error);
    }
  };

  const catchUp = async (current: number, r: Replay<Event>): Promise<void> => {
    const superseded = (): boolean => current !== round || ended;
    const from = cursor;
    /** Through where the replay delivered: live events up to here are duplicates. */
    let covered = from;
    try {
      const head = await headNumber(transport);
      for await (const chunk of r.missed(transport, from, head, filter)) {
        for (const event of chunk) {
          if (superseded()) return;
          deliver(event);
          covered = cursor;
        }
      }
      if (isAfter({ block: head }, covered)) covered = cursor = { block: head };
    } catch (error) {
      if (!superseded()) report(error as Error); // events after `covered` up to the head may be missing
    }
    if (superseded()) return;
    const live = held ?? [];
    held = undefined;
    for (const event of live) {
      if (ended) return;
      const p = r.position(event);
      if (!isAfter(p, from) || isAfter(p, covered)) deliver(event);
    }
  };

  const handlers: SubscriptionHandlers = {
    onOpen: () => {
      round++;
      if (!replay) return;
      held = [];
      void catchUp(round, replay);
    },
    onEvent: (result) => {
      if (ended) return;
      if (held) held.push(result as Event);
      else deliver(result as Event);
    },
    onDrop: (error) => {
      round++; // a replay under way lost its connection: the next onOpen runs it again
      if (!replay) report(error);
    },
    onEnd: (error) => {
      ended = true;
      report(error);
    },
  };

  const subscription = await transport.subscribe(filter === undefined ? [kind] : [kind, criteria(filter)], handlers);
  return async () => {
    ended = true;
    await subscription.close();
  };
}
