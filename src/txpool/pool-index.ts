/**
 * What the pool holds, in memory: every pooled transaction by hash, one sender list each (its
 * pending run and queued rest), the count of pending ones, and the price order eviction reads.
 * Pure bookkeeping: no locks, no journal, no events (pool.ts does those around it).
 */
import { CheapestIndex, orderForBlock } from './ordering.js';
import { SenderList } from './sender-list.js';
import type { PoolContent, PooledTx, PoolSize } from './types.js';

export class PoolIndex {
  private readonly all = new Map<string, PooledTx>();
  private readonly prices = new CheapestIndex(this.all);
  private readonly senders = new Map<string, SenderList>();
  private pendingTotal = 0;
  private changes = 0;

  /** Changes whenever a transaction comes, goes or moves between pending and queued: what answers made from the content are kept under. */
  get version(): number {
    return this.changes;
  }

  get(hashHex: string): PooledTx | undefined {
    return this.all.get(hashHex);
  }

  has(hashHex: string): boolean {
    return this.all.has(hashHex);
  }

  /** Whether `ptx` itself (not a replacement under its hash) is still pooled. */
  holds(ptx: PooledTx): boolean {
    return this.all.get(ptx.hashHex) === ptx;
  }

  get count(): number {
    return this.all.size;
  }

  transactions(): PooledTx[] {
    return [...this.all.values()];
  }

  senderList(senderHex: string): SenderList | undefined {
    return this.senders.get(senderHex);
  }

  senderHexes(): string[] {
    return [...this.senders.keys()];
  }

  size(limit: number): PoolSize {
    const total = this.all.size;
    return { pending: this.pendingTotal, queued: total - this.pendingTotal, total, limit };
  }

  /** Every pooled tx, grouped by lowercase sender, nonce-ascending. */
  content(): PoolContent {
    const pending = new Map<string, PooledTx[]>();
    const queued = new Map<string, PooledTx[]>();
    for (const [sender, list] of this.senders) {
      const p = list.pending();
      const q = list.queued();
      if (p.length > 0) pending.set(sender, p);
      if (q.length > 0) queued.set(sender, q);
    }
    return { pending, queued };
  }

  /**
   * Pending txs in block order: nonce order per sender; across senders by effective tip at
   * `baseFee` (descending), ties by arrival. A sender whose next tx cannot pay `baseFee`
   * contributes nothing further.
   */
  executables(baseFee: bigint): PooledTx[] {
    const runs: PooledTx[][] = [];
    for (const list of this.senders.values()) if (list.pendingCount > 0) runs.push(list.pending());
    return orderForBlock(runs, baseFee);
  }

  /** The cheapest pooled tx at `baseFee` and its tip, or undefined for an empty pool. */
  cheapest(baseFee: bigint): { ptx: PooledTx; tip: bigint } | undefined {
    return this.prices.cheapest(baseFee);
  }

  /** Pools `ptx`; `commitNonce` is its sender's state nonce, should the sender be new here. */
  attach(ptx: PooledTx, commitNonce: bigint): void {
    this.changes++;
    let list = this.senders.get(ptx.senderHex);
    if (list === undefined) {
      list = new SenderList(ptx.sender, commitNonce);
      this.senders.set(ptx.senderHex, list);
    }
    const before = list.pendingCount;
    list.put(ptx);
    this.pendingTotal += list.pendingCount - before;
    this.all.set(ptx.hashHex, ptx);
    this.prices.add(ptx);
  }

  detach(ptx: PooledTx): void {
    this.changes++;
    this.all.delete(ptx.hashHex);
    const list = this.senders.get(ptx.senderHex);
    if (list === undefined) return;
    const before = list.pendingCount;
    list.remove(ptx.nonce);
    this.pendingTotal += list.pendingCount - before;
    if (list.size === 0) this.senders.delete(ptx.senderHex);
  }

  /**
   * Moves a sender's list onto its new state nonce: the transactions the nonce made stale leave
   * (they are answered), the queued ones it reaches become pending.
   */
  rebase(senderHex: string, nonce: bigint): PooledTx[] {
    const list = this.senders.get(senderHex);
    if (list === undefined) return [];
    const before = list.pendingCount;
    const stale = list.rebase(nonce);
    // A sender whose transactions all stay where they were changes nothing a reader sees.
    if (stale.length > 0 || list.pendingCount !== before) this.changes++;
    this.pendingTotal += list.pendingCount - before;
    for (const ptx of stale) this.all.delete(ptx.hashHex);
    if (list.size === 0) this.senders.delete(senderHex);
    return stale;
  }

  clear(): void {
    this.changes++;
    this.all.clear();
    this.senders.clear();
    this.pendingTotal = 0;
  }
}
