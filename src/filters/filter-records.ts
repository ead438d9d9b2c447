// The installed filters as LevelDB keeps them, one record per filter id, so a restart loses none:
// written one after another (a poll's put never lands after the uninstall's delete), read back at
// open with cursors no further than the head.
import { bytesToUtf8, utf8ToBytes } from '@ethereumjs/util';
import type { FilterOptions } from '../../generated/types.js';
import type { Section } from '../storage/database.js';
import { parseCriteria, type LogCriteria } from './criteria.js';

export type FilterKind = 'logs' | 'blocks' | 'transactions';

/** An installed filter, as the registry holds it. */
export interface FilterState {
  readonly id: string;
  readonly kind: FilterKind;
  /** logs: the criteria as given, and the fixed bounds they name (null where a tag follows the head) */
  readonly options?: FilterOptions;
  readonly criteria?: LogCriteria;
  readonly lower: bigint | null;
  readonly upper: bigint | null;
  /** logs, blocks: the last block number reported */
  cursor: bigint;
  /** transactions: hashes admitted since the last poll */
  hashes: string[];
  /** clock reading at the first block after the last poll; undefined while no block came */
  idleSince?: number;
  /** the WebSocket connection that installed it: it dies with the connection and is never persisted */
  readonly owner?: object;
  /** polls of one filter run one at a time, so two overlapping polls never report the same thing */
  lock: Promise<unknown>;
}

interface StoredFilter {
  kind: FilterKind;
  options?: FilterOptions;
  lower?: string;
  upper?: string;
  cursor: string;
  hashes?: string[];
}

export class FilterRecords {
  private writes: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly section: Section) {}

  save(filter: FilterState): Promise<void> {
    const stored: StoredFilter = {
      kind: filter.kind,
      options: filter.options,
      lower: filter.lower?.toString(),
      upper: filter.upper?.toString(),
      cursor: filter.cursor.toString(),
      hashes: filter.kind === 'transactions' ? filter.hashes : undefined,
    };
    const value = utf8ToBytes(JSON.stringify(stored));
    return this.write(() => this.section.put(utf8ToBytes(filter.id), value));
  }

  delete(id: string): Promise<void> {
    return this.write(() => this.section.del(utf8ToBytes(id)));
  }

  /** Every stored filter, cursors past `head` (a chain rewound while the node was down) brought back to it; unreadable records are deleted. */
  async readAll(head: bigint): Promise<FilterState[]> {
    const filters: FilterState[] = [];
    for await (const [key, value] of this.section.iterator()) {
      const id = bytesToUtf8(key as Uint8Array);
      let stored: StoredFilter;
      let criteria: LogCriteria | undefined;
      try {
        stored = JSON.parse(bytesToUtf8(value)) as StoredFilter;
        if (stored.kind === 'logs') criteria = parseCriteria(stored.options);
      } catch {
        await this.section.del(key as Uint8Array);
        continue;
      }
      const cursor = BigInt(stored.cursor);
      filters.push({
        id,
        kind: stored.kind,
        options: stored.options,
        criteria,
        lower: stored.lower === undefined ? null : BigInt(stored.lower),
        upper: stored.upper === undefined ? null : BigInt(stored.upper),
        cursor: cursor > head ? head : cursor,
        hashes: stored.hashes ?? [],
        lock: Promise.resolve(),
      });
    }
    return filters;
  }

  /** Waits for the writes under way; later ones are dropped (the node is stopping). */
  async close(): Promise<void> {
    this.closed = true;
    await this.writes;
  }

  private write(op: () => Promise<void>): Promise<void> {
    if (this.closed) return Promise.resolve();
    const done = this.writes.then(op);
    this.writes = done.catch(() => undefined);
    return done;
  }
}
