// What the node does when a record read from its database is not what it wrote: LevelDB reads
// without verifying its tables' checksums (classic-level offers no way to ask it to), so a flipped
// bit in a table file would otherwise come back as a block, receipt or state of the chain. Every
// record the chain reads is checked instead (a checksum stored with blocks and transaction records,
// the hash a trie node is stored under), and one that fails is refused here: the read answers
// StorageDamage naming the record, and the node reports itself unhealthy.

/** A record read from the database does not match what was written: the data dir is damaged. */
export class StorageDamage extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageDamage';
  }
}

/** LevelDB's own word for damage it noticed (a table's block or index it cannot parse): classic-level's error code. */
const isLevelCorruption = (error: unknown): boolean =>
  (error as { code?: unknown } | undefined)?.code === 'LEVEL_CORRUPTION' || ((error as { cause?: unknown } | undefined)?.cause !== undefined && isLevelCorruption((error as { cause: unknown }).cause));

/** Damaged records named at most once each in the log; past this many the log names no more (the first stays in /health). */
const NAMED_RECORDS = 1000;

type DamageListener = (damage: StorageDamage) => void;

/**
 * The damage found in one database: each damaged record is told to the listeners (the log) the
 * first time a read meets it, and the first damage found stays as the database's health.
 */
export class DamageLog {
  #first?: StorageDamage;
  readonly #named = new Set<string>();
  readonly #listeners: DamageListener[] = [];

  /** The first damage found, if any: the node is unhealthy from then on. */
  get first(): StorageDamage | undefined {
    return this.#first;
  }

  onFound(listener: DamageListener): void {
    this.#listeners.push(listener);
  }

  /** The damage of `record` (named in words, e.g. "block 0x…"): `problem` says what is wrong with it. */
  found(record: string, problem: string): StorageDamage {
    const damage = new StorageDamage(`storage damage: ${record} ${problem}; the data dir's tables are damaged — restore the data dir from a copy`);
    this.#first ??= damage;
    if (!this.#named.has(record) && this.#named.size < NAMED_RECORDS) {
      this.#named.add(record);
      for (const listener of this.#listeners) listener(damage);
    }
    return damage;
  }

  /** `error` as the damage of `record` (named only then) when it is LevelDB's report of damage; any other error as it is. */
  caught(error: unknown, record: () => string): unknown {
    return isLevelCorruption(error) ? this.found(record(), `cannot be read: ${(error as Error).message}`) : error;
  }

  /** Runs `read`, turning LevelDB's report of damage into the damage of `record`. */
  read<T>(record: () => string, read: () => T): T {
    try {
      return read();
    } catch (error) {
      throw this.caught(error, record);
    }
  }

  /** {@link read} for a read that resolves later. */
  async readAsync<T>(record: () => string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw this.caught(error, record);
    }
  }
}
