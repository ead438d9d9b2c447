import { readdir, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.js';
import type { DiskDatabase } from './database.js';
import type { RequestGate } from './request-gate.js';
import { StorageFault } from './storage-fault.js';

export interface FailStopOptions {
  db: DiskDatabase;
  gate: RequestGate;
  /** Runs `task` while nothing but it uses the database: no block being built, no block's news being read out. */
  quiesce: <T>(task: () => Promise<T>) => Promise<T>;
  /** What the re-opened database lacks of what the node acknowledged (its head), in words; undefined if nothing. */
  check: () => Promise<string | undefined>;
  /** Writes are taken again: mining may resume. */
  recovered: () => void;
  log: Logger;
  /** how often a faulted database is tried again */
  retryMs?: number;
}

export type StorageHealth = { ok: true } | { ok: false; error: string };

/** Room LevelDB's recovery needs beyond the size of its logs (a new MANIFEST, a new log, its info LOG). */
const RECOVERY_HEADROOM = 1 << 20;

/**
 * Brings the database back after a failed write. While it is faulted, writes are refused and
 * reads go on; once a second, if the disk has room for LevelDB's recovery, it is closed and
 * re-opened (with no request in flight and no block being built): recovery replays the log up to
 * the torn record, writes what it held into a table and starts a fresh log. Then the stored head
 * is checked against the node's; only if it holds does the node take writes again. A re-open that
 * fails leaves the database closed and every request refused until a later try succeeds.
 */
export class FailStop {
  private timer?: NodeJS.Timeout;
  private attempt?: Promise<void>;
  /** The re-opened database lacks what the node acknowledged: writes stay refused for good. */
  private lost?: StorageFault;
  private closed?: StorageFault;
  private lastReport?: string;
  /** The last fault logged, and when: a disk that keeps failing is logged once a minute, not once a retry. */
  private logged?: { message: string; at: number; quiet: boolean };

  constructor(private readonly opts: FailStopOptions) {
    opts.db.level.onFault((fault) => {
      const now = performance.now();
      const quiet = this.logged !== undefined && this.logged.message === fault.message && now - this.logged.at < 60_000;
      if (quiet) opts.log.debug(`storage: ${fault.message}`);
      else opts.log.error(`storage: ${fault.message}`);
      this.logged = { message: fault.message, at: quiet ? this.logged!.at : now, quiet };
      this.timer ??= setInterval(() => void this.tryRecovery(), opts.retryMs ?? 1000);
      this.timer.unref();
    });
  }

  health(): StorageHealth {
    const fault = this.lost ?? this.closed ?? this.opts.db.level.fault;
    return fault === undefined ? { ok: true } : { ok: false, error: fault.message };
  }

  /** One try at recovery (tries never overlap); resolves when it is over, recovered or not. */
  tryRecovery(): Promise<void> {
    this.attempt ??= this.recover().finally(() => (this.attempt = undefined));
    return this.attempt;
  }

  /** Stops trying (the node is shutting down). */
  async close(): Promise<void> {
    this.stopTrying();
    await this.attempt;
  }

  private async recover(): Promise<void> {
    const { db, gate, log } = this.opts;
    const fault = db.level.fault;
    if (fault === undefined || this.lost !== undefined) return;
    try {
      if (!(await roomToRecover(db.level.location))) return;
    } catch (error) {
      this.report(`storage: cannot tell whether the data dir has room again: ${(error as Error).message}`);
      return;
    }
    let problem: string | undefined;
    try {
      await gate.exclusive(() =>
        this.opts.quiesce(async () => {
          await db.reopen();
          problem = await this.opts.check();
        }),
      );
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : (error as Error).message;
      if (db.root.status !== 'open') {
        this.closed = new StorageFault(`${fault.message}; re-opening the database failed (${cause}), so it stays closed until a retry succeeds`);
        gate.refuse(this.closed);
      }
      this.report(`storage: re-opening the database failed: ${cause}`);
      return;
    }
    this.closed = undefined;
    gate.accept();
    if (problem !== undefined) {
      this.lost = new StorageFault(`storage failure: the re-opened database does not hold what the node acknowledged: ${problem}; writes stay refused`);
      this.stopTrying();
      log.error(`storage: ${this.lost.message}`);
      return;
    }
    db.level.clearFault();
    this.stopTrying();
    this.lastReport = undefined;
    const recovered = 'storage: the database was re-opened and its head checked; writes are taken again';
    if (this.logged?.quiet === true) log.debug(recovered);
    else log.info(recovered);
    this.opts.recovered();
  }

  /** Logs a failed try once, not once a second. */
  private report(message: string): void {
    if (message !== this.lastReport) this.opts.log.warn(message);
    this.lastReport = message;
  }

  private stopTrying(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Whether the disk has room for LevelDB's recovery: a table as large as its logs, and a little more. */
async function roomToRecover(dir: string): Promise<boolean> {
  let needed = RECOVERY_HEADROOM;
  for (const name of await readdir(dir)) {
    if (name.endsWith('.log')) needed += (await stat(join(dir, name))).size;
  }
  const { bavail, bsize } = await statfs(dir);
  return bavail * bsize >= needed;
}
