// eth_subscribe over WebSocket: newHeads, logs and newPendingTransactions pushed to the
// connection that asked, from the block after the subscription on, each event exactly once.
import type { Block } from '@ethereumjs/block';
import type { FilterOptions } from '../../generated/types.js';
import type { Chain } from '../chain/chain.js';
import { toRpcHeader } from '../format/header.js';
import type { Logger } from '../log.js';
import { FilterError, limitExceeded } from './errors.js';
import { bloomMayMatch, parseCriteria, type LogCriteria } from './criteria.js';
import { newId, normalizeId } from './ids.js';
import { selectLogs, type LogQuery, type PositionedLog } from './log-query.js';

export type SubscriptionKind = 'newHeads' | 'logs' | 'newPendingTransactions';

/** Where notifications go: one WebSocket connection. */
export interface Subscriber {
  /** false once the connection has ended: nothing may be registered for it any more */
  readonly isOpen: boolean;
  notify(subscription: string, result: unknown): void;
}

/**
 * What a stateful transport hands a method in `CallContext.connection`: the connection, and a
 * way to act once the reply to the current request has gone out (a subscription's first
 * notification must not overtake the reply that tells the client its id).
 */
export interface SubscriberSession {
  readonly subscriber: Subscriber;
  afterReply(action: () => void): void;
}

interface Subscription {
  readonly id: string;
  readonly kind: SubscriptionKind;
  readonly criteria?: LogCriteria;
  readonly owner: Subscriber;
  /** the head when it began (or went back to): blocks up to this one are not news to it */
  after: bigint;
  /** notifications held back until the reply carrying the id has been sent */
  held?: unknown[];
}

export class Subscriptions {
  private readonly byId = new Map<string, Subscription>();
  private readonly byOwner = new Map<Subscriber, Set<string>>();
  private delivery: Promise<void> = Promise.resolve();

  constructor(
    private chain: Chain,
    private logQuery: LogQuery,
    private readonly log: Pick<Logger, 'error'>,
    private readonly opts: { maxPerConnection: number },
  ) {}

  get size(): number {
    return this.byId.size;
  }

  /** eth_subscribe: the subscription's id; notifications start once the reply is out. */
  subscribe(session: SubscriberSession, kind: SubscriptionKind, options?: FilterOptions): string {
    const owner = session.subscriber;
    const owned = this.byOwner.get(owner) ?? new Set<string>();
    if (owned.size >= this.opts.maxPerConnection) {
      throw limitExceeded(`too many subscriptions on this connection: the limit is ${this.opts.maxPerConnection}; cancel unused ones with eth_unsubscribe`);
    }
    const criteria = kind === 'logs' ? parseCriteria(options) : undefined;
    let id = newId();
    while (this.byId.has(id)) id = newId();
    const subscription: Subscription = { id, kind, criteria, owner, after: this.chain.head().header.number, held: [] };
    this.byId.set(id, subscription);
    owned.add(id);
    this.byOwner.set(owner, owned);
    session.afterReply(() => {
      const held = subscription.held ?? [];
      subscription.held = undefined;
      if (this.byId.get(id) === subscription) for (const result of held) owner.notify(id, result);
    });
    return id;
  }

  /** eth_unsubscribe: only the connection that subscribed may cancel. */
  unsubscribe(owner: Subscriber, rawId: string): boolean {
    const id = normalizeId(rawId);
    const subscription = this.byId.get(id);
    if (subscription === undefined || subscription.owner !== owner) throw new FilterError('not-found', 'subscription not found');
    this.byId.delete(id);
    this.byOwner.get(owner)?.delete(id);
    return true;
  }

  /** A connection closed: everything it subscribed to ends. */
  dropOwner(owner: Subscriber): void {
    for (const id of this.byOwner.get(owner) ?? []) this.byId.delete(id);
    this.byOwner.delete(owner);
  }

  /** A block landed. Deliveries run one block at a time, in chain order. */
  blockLanded(block: Block): void {
    if (this.byId.size === 0) return;
    this.delivery = this.delivery
      .then(() => this.deliver(block))
      .catch((error: unknown) => this.log.error('subscription delivery failed', error instanceof Error ? (error.stack ?? error.message) : error));
  }

  /**
   * The chain went back to `head` (evm_revert): the blocks mined from there are news again to
   * every subscription; the blocks that left are not announced as removed.
   */
  rewound(head: bigint): void {
    for (const subscription of this.byId.values()) if (subscription.after > head) subscription.after = head;
  }

  /** The chain was replaced (anvil_reset): subscriptions carry on over the new one, from its genesis. */
  rebind(chain: Chain, logQuery: LogQuery): void {
    this.chain = chain;
    this.logQuery = logQuery;
    this.rewound(chain.head().header.number);
  }

  /** The pool admitted a transaction. */
  transactionAdded(hashHex: string): void {
    for (const subscription of this.byId.values()) if (subscription.kind === 'newPendingTransactions') this.push(subscription, hashHex);
  }

  /** Resolves once every block announced so far has been delivered. */
  async idle(): Promise<void> {
    await this.delivery;
  }

  private async deliver(block: Block): Promise<void> {
    const number = block.header.number;
    const due = [...this.byId.values()].filter((s) => s.kind !== 'newPendingTransactions' && s.after < number);
    if (due.length === 0) return;
    let header: unknown;
    let blockLogs: PositionedLog[] | undefined;
    for (const subscription of due) {
      if (subscription.kind === 'newHeads') {
        header ??= toRpcHeader(block);
        this.push(subscription, header);
        continue;
      }
      const criteria = subscription.criteria as LogCriteria;
      if (!bloomMayMatch(criteria, block.header.logsBloom)) continue;
      // One read of the block's receipts serves every logs subscription.
      blockLogs ??= await this.logQuery.positionedLogs(block);
      for (const log of selectLogs(blockLogs, criteria)) this.push(subscription, log);
    }
  }

  private push(subscription: Subscription, result: unknown): void {
    // Cancelled meanwhile (a delivery awaits receipts between subscriptions).
    if (this.byId.get(subscription.id) !== subscription) return;
    if (subscription.held !== undefined) subscription.held.push(result);
    else subscription.owner.notify(subscription.id, result);
  }
}
