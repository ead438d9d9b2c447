// Installed filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter) and
// their polls. A log or block filter keeps a cursor, the last block it reported, and computes
// its changes from the canonical chain on each poll; a pending-transaction filter buffers what
// the pool announces. Filters and cursors live in LevelDB, so a restart loses nothing.
import { bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { FilterOptions, Log } from '../../generated/types.js';
import type { Chain } from '../chain/chain.js';
import { filterNotFound, limitExceeded, unknownBlock } from './errors.js';
import type { Section } from '../storage/database.js';
import { newId, normalizeId } from './ids.js';
import { checkFilterOptions, isExplicitNumber, type LogQuery } from './log-query.js';
import type { LogCriteria } from './criteria.js';
import { FilterRecords, type FilterState } from './filter-records.js';

export const DEFAULT_MAX_PENDING_HASHES = 10_000;

export interface FilterRegistryOptions {
  /** a filter not polled for this long, counted from the first block after its last poll, is removed */
  timeoutMs: number;
  /** most filters installed at once */
  maxFilters: number;
  /** the clock, in milliseconds; injectable so tests need not wait */
  now?: () => number;
  /** how often expired filters are swept; 0 sweeps only when blocks land or filters are touched */
  sweepIntervalMs?: number;
  /** most transaction hashes a pending-transaction filter holds between polls (the oldest go first) */
  maxPendingHashes?: number;
}

export class FilterRegistry {
  private readonly filters = new Map<string, FilterState>();
  private readonly byOwner = new Map<object, Set<string>>();
  private readonly records: FilterRecords;
  private readonly now: () => number;
  private readonly maxPendingHashes: number;
  private timer?: NodeJS.Timeout;

  private constructor(
    section: Section,
    private readonly chain: Chain,
    private readonly logQuery: LogQuery,
    private readonly opts: FilterRegistryOptions,
  ) {
    this.records = new FilterRecords(section);
    this.now = opts.now ?? (() => performance.now());
    this.maxPendingHashes = opts.maxPendingHashes ?? DEFAULT_MAX_PENDING_HASHES;
    const every = opts.sweepIntervalMs ?? Math.min(60_000, Math.max(1_000, Math.floor(opts.timeoutMs / 4)));
    if (every > 0) {
      this.timer = setInterval(() => this.sweep(), every);
      this.timer.unref();
    }
  }

  /** Opens the registry over its LevelDB section, reinstalling every persisted filter. */
  static async open(section: Section, chain: Chain, logQuery: LogQuery, opts: FilterRegistryOptions): Promise<FilterRegistry> {
    const registry = new FilterRegistry(section, chain, logQuery, opts);
    for (const filter of await registry.records.readAll(chain.head().header.number)) registry.filters.set(filter.id, filter);
    return registry;
  }

  get size(): number {
    return this.filters.size;
  }

  // ------------------------------------------------------------------ install

  /** eth_newFilter. A fixed fromBlock (or a blockHash) makes the first poll report the matching history too. */
  async newLogFilter(options: FilterOptions, owner?: object): Promise<string> {
    const criteria = checkFilterOptions(options);
    let lower: bigint | null = fixedBound(options.fromBlock);
    let upper: bigint | null = fixedBound(options.toBlock);
    if (options.blockHash !== undefined) {
      const block = await this.chain.blockByHash(hexToBytes(options.blockHash as PrefixedHexString));
      if (block === undefined) throw unknownBlock();
      lower = upper = block.header.number;
    }
    const head = this.chain.head().header.number;
    const cursor = lower !== null && lower - 1n < head ? lower - 1n : head;
    return this.install({ kind: 'logs', options, criteria, lower, upper, cursor, owner });
  }

  /** eth_newBlockFilter: the hashes of blocks after the current head. */
  async newBlockFilter(owner?: object): Promise<string> {
    return this.install({ kind: 'blocks', lower: null, upper: null, cursor: this.chain.head().header.number, owner });
  }

  /** eth_newPendingTransactionFilter: the hashes of transactions admitted from now on. */
  async newPendingTransactionFilter(owner?: object): Promise<string> {
    return this.install({ kind: 'transactions', lower: null, upper: null, cursor: 0n, owner });
  }

  private async install(spec: Omit<FilterState, 'id' | 'hashes' | 'lock'>): Promise<string> {
    this.sweep();
    if (this.filters.size >= this.opts.maxFilters) {
      throw limitExceeded(
        `too many filters: the limit is ${this.opts.maxFilters}; uninstall filters no longer polled (eth_uninstallFilter), or raise --max-filters`,
      );
    }
    let id = newId();
    while (this.filters.has(id)) id = newId();
    const filter: FilterState = { ...spec, id, hashes: [], lock: Promise.resolve() };
    this.filters.set(id, filter);
    if (filter.owner !== undefined) {
      const owned = this.byOwner.get(filter.owner) ?? new Set<string>();
      owned.add(id);
      this.byOwner.set(filter.owner, owned);
    }
    try {
      await this.persist(filter);
    } catch (error) {
      // Not stored, so not installed: a restart would not know it.
      this.filters.delete(id);
      throw error;
    }
    return id;
  }

  // -------------------------------------------------------------------- polls

  /** eth_getFilterChanges: what happened since the previous poll, each item exactly once, in chain order. */
  async changes(rawId: string): Promise<string[] | Log[]> {
    const filter = this.touch(rawId);
    return this.locked(filter, async () => {
      const head = this.chain.head().header.number;
      const before = filter.cursor;
      let result: string[] | Log[];
      if (filter.kind === 'transactions') {
        result = filter.hashes;
        filter.hashes = [];
      } else if (filter.cursor >= head) {
        filter.cursor = head;
        result = [];
      } else if (filter.kind === 'blocks') {
        result = await this.newBlocks(filter, head);
      } else {
        result = await this.newLogs(filter, head);
      }
      try {
        await this.persist(filter);
      } catch (error) {
        // Unanswered, so not reported: the next poll reports the same again.
        filter.cursor = before;
        if (filter.kind === 'transactions') filter.hashes = (result as string[]).concat(filter.hashes);
        throw error;
      }
      return result;
    });
  }

  /** eth_getFilterLogs: every log matching a log filter's criteria, as eth_getLogs answers them. */
  async logs(rawId: string): Promise<Log[]> {
    const filter = this.touch(rawId);
    if (filter.kind !== 'logs' || filter.options === undefined) throw filterNotFound();
    return this.logQuery.getLogs(filter.options);
  }

  /** eth_uninstallFilter: true when the filter existed (an expired one no longer does). */
  async uninstall(rawId: string): Promise<boolean> {
    const filter = this.filters.get(normalizeId(rawId));
    if (filter === undefined) return false;
    const live = !this.isExpired(filter, this.now());
    const removal = this.remove(filter);
    try {
      await removal;
    } catch (error) {
      // Still stored, so still installed.
      this.filters.set(filter.id, filter);
      throw error;
    }
    return live;
  }

  /** Block hashes after the cursor, up to the head read when the poll began. */
  private async newBlocks(filter: FilterState, head: bigint): Promise<string[]> {
    const end = min(head, filter.cursor + BigInt(this.logQuery.limits.maxBlocks));
    const hashes: string[] = [];
    for await (const [, hash] of this.chain.blocks.canonicalHashes(filter.cursor + 1n, end)) hashes.push(bytesToHex(hash));
    filter.cursor = end;
    return hashes;
  }

  /**
   * Matching logs after the cursor. A long gap (history from a fixed fromBlock, or a node that
   * mined much between polls) is answered in pieces within the eth_getLogs limits, always
   * ending on a whole block; the next poll continues where this one stopped.
   */
  private async newLogs(filter: FilterState, head: bigint): Promise<Log[]> {
    const criteria = filter.criteria as LogCriteria;
    const windowEnd = min(head, filter.cursor + BigInt(this.logQuery.limits.maxBlocks));
    if (filter.options?.blockHash !== undefined) {
      // That very block, canonical or not, once: by hash, never by its number.
      const due = filter.lower !== null && filter.cursor < filter.lower;
      const block = due ? await this.chain.blockByHash(hexToBytes(filter.options.blockHash as PrefixedHexString)) : undefined;
      filter.cursor = head;
      return block === undefined ? [] : this.logQuery.blockLogs(block, criteria);
    }
    const from = filter.lower !== null && filter.lower > filter.cursor + 1n ? filter.lower : filter.cursor + 1n;
    const to = filter.upper !== null ? min(windowEnd, filter.upper) : windowEnd;
    if (from > to) {
      filter.cursor = windowEnd;
      return [];
    }
    const scan = await this.logQuery.scan(criteria, from, to, this.logQuery.limits.maxResults);
    if (scan.overflowAt === undefined) {
      filter.cursor = windowEnd;
      return scan.logs;
    }
    if (scan.overflowAt > from) {
      filter.cursor = scan.through;
      return scan.logs;
    }
    // One block alone holds more than the limit: it still goes out whole, or the filter would stall on it.
    const hash = await this.chain.blocks.canonicalHash(from);
    const block = hash === undefined ? undefined : await this.chain.blockByHash(hash);
    filter.cursor = from;
    return block === undefined ? [] : this.logQuery.blockLogs(block, criteria);
  }

  // ------------------------------------------------------------------- events

  /** A block landed: each filter's idle time starts with the first block after its last poll. */
  blockLanded(): void {
    const now = this.now();
    for (const filter of this.filters.values()) filter.idleSince ??= now;
    this.sweep(now);
  }

  /**
   * The chain went back to `head` (evm_revert). A cursor past it moves back to it, so the blocks
   * mined from there are reported as they come, and the blocks that left are never reported
   * (nor reported as removed: the filter sees the revert as a rewind, not as a reorganisation).
   */
  rewound(head: bigint): void {
    for (const filter of this.filters.values()) {
      if (filter.kind === 'transactions' || filter.cursor <= head) continue;
      filter.cursor = head;
      void this.persist(filter);
    }
  }

  /** The pool admitted a transaction. */
  transactionAdded(hashHex: string): void {
    for (const filter of this.filters.values()) {
      if (filter.kind !== 'transactions') continue;
      filter.hashes.push(hashHex);
      if (filter.hashes.length > this.maxPendingHashes) filter.hashes.splice(0, filter.hashes.length - this.maxPendingHashes);
    }
  }

  /** Removes every filter idle for longer than the timeout; answers their ids. */
  sweep(now = this.now()): string[] {
    const expired = [...this.filters.values()].filter((filter) => this.isExpired(filter, now));
    for (const filter of expired) this.remove(filter);
    return expired.map((filter) => filter.id);
  }

  /** A connection closed: its filters go with it. */
  dropOwner(owner: object): void {
    for (const id of this.byOwner.get(owner) ?? []) {
      const filter = this.filters.get(id);
      if (filter !== undefined) this.remove(filter);
    }
    this.byOwner.delete(owner);
  }

  /** Stops sweeping and writes what only memory held (pending-transaction buffers). */
  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    for (const filter of this.filters.values()) if (filter.kind === 'transactions') void this.persist(filter);
    await this.records.close();
  }

  // ------------------------------------------------------------------ helpers

  private isExpired(filter: FilterState, now: number): boolean {
    return filter.idleSince !== undefined && now - filter.idleSince >= this.opts.timeoutMs;
  }

  /** The live filter under `rawId`, its idle time reset; expired or unknown ids are `filter not found`. */
  private touch(rawId: string): FilterState {
    const filter = this.filters.get(normalizeId(rawId));
    if (filter === undefined) throw filterNotFound();
    if (this.isExpired(filter, this.now())) {
      this.remove(filter);
      throw filterNotFound();
    }
    filter.idleSince = undefined;
    return filter;
  }

  private locked<T>(filter: FilterState, run: () => Promise<T>): Promise<T> {
    const result = filter.lock.then(() => {
      // Uninstalled (or expired) while waiting behind another poll.
      if (this.filters.get(filter.id) !== filter) throw filterNotFound();
      return run();
    });
    filter.lock = result.catch(() => undefined);
    return result;
  }

  /** Forgets the filter; resolves once its record is deleted (expiries and closed connections need not wait). */
  private remove(filter: FilterState): Promise<void> {
    if (this.filters.get(filter.id) !== filter) return Promise.resolve();
    this.filters.delete(filter.id);
    if (filter.owner !== undefined) {
      this.byOwner.get(filter.owner)?.delete(filter.id);
      return Promise.resolve();
    }
    const deleted = this.records.delete(filter.id);
    deleted.catch(() => undefined);
    return deleted;
  }

  /** Writes the filter's record, unless it belongs to a connection or is gone. */
  private persist(filter: FilterState): Promise<void> {
    if (filter.owner !== undefined || this.filters.get(filter.id) !== filter) return Promise.resolve();
    return this.records.save(filter);
  }
}

/** The block number a fixed bound names; null for tags that follow the head. */
function fixedBound(ref: string | undefined): bigint | null {
  if (ref === 'earliest') return 0n;
  return isExplicitNumber(ref) ? BigInt(ref) : null;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
