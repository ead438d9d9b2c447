import { ClassicLevel } from 'classic-level';
import { StorageFault, writeFault } from './storage-fault.js';

/**
 * abstract-level's private write methods. Every public write ends in one of them, a sublevel's
 * too (a sublevel's put, del and batch call its parent's, its clear the root's), so guarding them on the
 * root guards every write the node makes.
 */
interface PrivateWrites {
  _put(key: unknown, value: unknown, options: unknown): Promise<void>;
  _del(key: unknown, options: unknown): Promise<void>;
  _batch(operations: unknown[], options: unknown): Promise<void>;
  _clear(options: unknown): Promise<void>;
}
const leveldb = ClassicLevel.prototype as unknown as PrivateWrites;

type FaultListener = (fault: StorageFault) => void;

/**
 * The node's LevelDB, fail-stop: once a write fails, no other write reaches LevelDB until the
 * fault is cleared (after the database was closed, re-opened and checked).
 *
 * Why: LevelDB does not stop after a failed append to its log. The torn record stays in the log
 * and later writes are appended after it; on recovery the log reader drops the rest of that
 * 32 KiB block at the checksum mismatch, and with it those later, acknowledged writes. Writes
 * also reach LevelDB one at a time, so none can be queued inside LevelDB behind a failing one:
 * every write that succeeded was appended before the first failure.
 */
export class FailStopLevel extends ClassicLevel<Uint8Array, Uint8Array> {
  #fault?: StorageFault;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #listeners = new Set<FaultListener>();

  /** The fault that stops writes, if any. */
  get fault(): StorageFault | undefined {
    return this.#fault;
  }

  /** Told once per fault, when the first write fails. */
  onFault(listener: FaultListener): void {
    this.#listeners.add(listener);
  }

  /** Writes go through again: only once the database was re-opened and its head checked. */
  clearFault(): void {
    this.#fault = undefined;
  }

  _put(key: unknown, value: unknown, options: unknown): Promise<void> {
    return this.#guarded(() => leveldb._put.call(this, key, value, options));
  }

  _del(key: unknown, options: unknown): Promise<void> {
    return this.#guarded(() => leveldb._del.call(this, key, options));
  }

  _batch(operations: unknown[], options: unknown): Promise<void> {
    return this.#guarded(() => leveldb._batch.call(this, operations, options));
  }

  _clear(options: unknown): Promise<void> {
    return this.#guarded(() => leveldb._clear.call(this, options));
  }

  /** A chained batch would write through a path of its own, around the guard; the node uses batch(ops). */
  _chainedBatch(): never {
    throw new TypeError('chained batches are not supported: use batch(operations)');
  }

  /** The write as it reaches LevelDB. A test store overrides it to fail the way a full disk does. */
  protected reachDisk(write: () => Promise<void>): Promise<void> {
    return write();
  }

  #guarded(write: () => Promise<void>): Promise<void> {
    if (this.#fault !== undefined) return Promise.reject(this.#fault);
    const run = this.#queue.then(async () => {
      if (this.#fault !== undefined) throw this.#fault;
      try {
        await this.reachDisk(write);
      } catch (error) {
        throw this.#trip(writeFault(error, this.location));
      }
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #trip(fault: StorageFault): StorageFault {
    this.#fault = fault;
    for (const listener of this.#listeners) listener(fault);
    return fault;
  }
}
