import type { StorageFault } from './storage-fault.js';

/**
 * Lets requests run side by side, and the database's re-open run alone: {@link exclusive} waits
 * for the requests in flight to finish and holds new ones back until it is done, because an
 * operation issued while LevelDB closes fails and its iterators are closed under it. While the
 * database stays closed (a re-open failed), requests are refused with the fault instead.
 *
 * A request's cost is a counter and a check when nothing is held back.
 */
export class RequestGate {
  private active = 0;
  private barrier?: Promise<void>;
  private drained?: () => void;
  private refusal?: StorageFault;

  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.barrier !== undefined) return this.barrier.then(() => this.run(task));
    if (this.refusal !== undefined) return Promise.reject(this.refusal);
    this.active++;
    return task().finally(() => {
      if (--this.active === 0) this.drained?.();
    });
  }

  /** Runs `task` once no request is in flight, holding new requests until it settles. */
  async exclusive<T>(task: () => Promise<T>): Promise<T> {
    while (this.barrier !== undefined) await this.barrier;
    let release!: () => void;
    this.barrier = new Promise<void>((resolve) => (release = resolve));
    try {
      if (this.active > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      return await task();
    } finally {
      this.drained = undefined;
      this.barrier = undefined;
      release();
    }
  }

  /** Requests fail with `fault` until {@link accept}: the database is closed. */
  refuse(fault: StorageFault): void {
    this.refusal = fault;
  }

  accept(): void {
    this.refusal = undefined;
  }
}
