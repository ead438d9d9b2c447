/**
 * The journaling of accepted transactions (TxPool.accept): pooled at once, written only when a
 * caller is about to acknowledge one, and then together with every other such write asked for
 * meanwhile, one LevelDB batch after the other. Under automine most are mined before anyone asks,
 * and never cost a journal write.
 */
import type { JournalOp } from './journal.js';
import type { PooledTx } from './types.js';

/** What the deferred journal needs of the pool. */
export interface JournalTarget {
  /** Whether `ptx` itself is still pooled: what left meanwhile must not come back into the journal. */
  holds(ptx: PooledTx): boolean;
  putOp(ptx: PooledTx): JournalOp;
  write(ops: JournalOp[]): Promise<void>;
  /** The group's write failed: its members that are still pooled leave the pool. */
  unwind(members: PooledTx[]): Promise<void>;
}

interface Group {
  members: PooledTx[];
  /** resolves once the group's batch has landed */
  written: Promise<void>;
}

export class DeferredJournal {
  /** Accepted transactions not yet given to the journal, by hash. */
  private readonly waiting = new Set<string>();
  /** Journal writes of accepted transactions, by hash, until they land. */
  private readonly writing = new Map<string, Promise<void>>();
  /** The next group to journal, written once the group before it has landed. */
  private next?: Group;
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly target: JournalTarget) {}

  /** `hashHex` was pooled without a journal entry. */
  defer(hashHex: string): void {
    this.waiting.add(hashHex);
  }

  /** Whether `hashHex` is pooled without a journal entry (so it has none to delete). */
  isDeferred(hashHex: string): boolean {
    return this.waiting.has(hashHex);
  }

  /** `hashHex` left the pool: nothing of it is to be written. */
  forget(hashHex: string): void {
    this.waiting.delete(hashHex);
  }

  clear(): void {
    this.waiting.clear();
  }

  /**
   * Resolves once the accepted `ptx` is in the journal, or is no longer pooled. Concurrent calls
   * share a batch; when it fails, each rejects with the write's error after the group has left
   * the pool.
   */
  persist(ptx: PooledTx): Promise<void> {
    const pending = this.writing.get(ptx.hashHex);
    if (pending !== undefined) return pending;
    if (!this.waiting.delete(ptx.hashHex)) return Promise.resolve();
    const group = this.next ?? this.open();
    group.members.push(ptx);
    this.writing.set(ptx.hashHex, group.written);
    return group.written;
  }

  private open(): Group {
    const members: PooledTx[] = [];
    const written = this.last.then(async () => {
      if (this.next?.members === members) this.next = undefined;
      const ops = members.filter((p) => this.target.holds(p)).map((p) => this.target.putOp(p));
      try {
        await this.target.write(ops);
      } catch (error) {
        // Not journaled, so never acknowledged: each caller is told the write failed, and the
        // transaction leaves the pool, as one refused at admission never enters it.
        await this.target.unwind(members);
        throw error;
      } finally {
        for (const p of members) this.writing.delete(p.hashHex);
      }
    });
    this.last = written.catch(() => undefined);
    const group = { members, written };
    this.next = group;
    return group;
  }
}
