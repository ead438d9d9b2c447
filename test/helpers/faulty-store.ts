// A database whose writes fail on demand, as LevelDB reports a full disk or a failing one: the
// failure is injected where the write would reach LevelDB, beneath the node's fail-stop guard.
import type { StartOptions } from '../../src/node.js';
import { FailStopLevel } from '../../src/storage/fail-stop-level.js';

export type InjectedFault = 'ENOSPC' | 'EIO';

const STRERROR: Record<InjectedFault, string> = { ENOSPC: 'No space left on device', EIO: 'Input/output error' };

export class FaultyLevel extends FailStopLevel {
  /** While set, each write that reaches the disk fails with it (once `passing` more have passed). */
  failing?: InjectedFault;
  /** Writes that still pass before `failing` takes effect: a fault part-way through a run of writes. */
  passing = 0;
  /** Writes that reached the disk (or would have, but failed). */
  reached = 0;

  protected override reachDisk(write: () => Promise<void>): Promise<void> {
    this.reached++;
    if (this.failing === undefined) return write();
    if (this.passing > 0) {
      this.passing--;
      return write();
    }
    // classic-level's error for a failed log append, as seen on a full tmpfs.
    return Promise.reject(Object.assign(new Error(`IO error: ${this.location}/000003.log: ${STRERROR[this.failing]}`), { code: 'LEVEL_IO_ERROR' }));
  }
}

/** Start options that give the node a FaultyLevel; `store()` is it once the node has started. */
export function faultyStorage(): { options: StartOptions; store(): FaultyLevel } {
  let level: FaultyLevel | undefined;
  return {
    options: { storage: { createLevel: (dir, options) => (level = new FaultyLevel(dir, { keyEncoding: 'view', valueEncoding: 'view', ...options })) as FailStopLevel } },
    store: () => {
      if (level === undefined) throw new Error('the node has not opened its store yet');
      return level;
    },
  };
}
