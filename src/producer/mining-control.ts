import type { Logger } from '../log.js';
import { StorageFault } from '../storage/storage-fault.js';
import type { Miner } from './miner.js';
import type { TxPool } from '../txpool/pool.js';

/**
 * After a block of several transactions, how long the next block may wait for their senders'
 * next ones (see {@link MiningControl.gathered}): half as long as the block took to mine — the
 * senders' round trip grows with the machine's load as block building does — within these bounds.
 */
const GATHER_MIN_MS = 1;
const GATHER_MAX_MS = 10;

/** What mining control asks of the miner and the pool. */
export type MiningMiner = Pick<Miner, 'mine'>;
export type MiningPool = Pick<TxPool, 'executables' | 'on'>;

/**
 * When blocks are mined: on each transaction (automine), every N milliseconds (interval), or
 * only on evm_mine. Both switches may be on at once, as in Hardhat.
 */
export class MiningControl {
  private automine: boolean;
  private interval = 0;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private readonly waiters = new Map<string, Array<() => void>>();
  private readonly gatherMs?: number;
  private readonly writable: () => boolean;

  constructor(
    private readonly miner: MiningMiner,
    private readonly pool: MiningPool,
    private readonly log: Pick<Logger, 'error'>,
    /** `writable`: false while the database refuses writes; no block is tried then (the fault is logged once, elsewhere). */
    opts: { automine: boolean; intervalMs: number; gatherMs?: number; writable?: () => boolean },
  ) {
    this.automine = opts.automine;
    this.gatherMs = opts.gatherMs;
    this.writable = opts.writable ?? (() => true);
    this.setInterval(opts.intervalMs);
  }

  get isAutomine(): boolean {
    return this.automine;
  }

  /** Milliseconds between interval-mined blocks; 0 when interval mining is off. */
  get intervalMs(): number {
    return this.interval;
  }

  setAutomine(on: boolean): void {
    this.automine = on;
    if (on) void this.kick();
  }

  setInterval(ms: number): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.interval = ms;
    if (ms > 0) {
      this.timer = setInterval(() => {
        if (this.writable()) this.miner.mine().catch((error) => this.failed('interval mining', error));
      }, ms);
      this.timer.unref();
    }
  }

  /**
   * Called for each accepted transaction. With automine on, resolves once the transaction is in
   * a block (or once mining stops without it, e.g. when it waits behind a nonce gap), so a client
   * that sends and then asks for the receipt finds it, as with anvil and Hardhat.
   */
  async submitted(hashHex: string): Promise<void> {
    if (!this.automine) return;
    const included = new Promise<void>((resolve) => {
      const list = this.waiters.get(hashHex) ?? [];
      list.push(resolve);
      this.waiters.set(hashHex, list);
    });
    // Answered as soon as its block lands, not when mining stops: the rounds go on while others send.
    void this.kick();
    await included;
  }

  /** Mines until no executable transaction is left; concurrent callers share the rounds. */
  private kick(): Promise<void> {
    this.again = true;
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      // A kick that landed after the last round looked: go round again instead of letting its waiters go.
      if (this.again) void this.kick();
      else this.release();
    });
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.again) {
      this.again = false;
      while (this.automine && this.writable() && this.pool.executables().length > 0) {
        try {
          const started = performance.now();
          const { included } = await this.miner.mine();
          const took = performance.now() - started;
          const answered = included.filter((tx) => this.waiters.has(tx.hashHex)).length;
          for (const tx of included) this.resolve(tx.hashHex);
          // Executable on paper but none would run (say, a balance spent meanwhile): wait for news.
          if (included.length === 0) break;
          await this.gathered(answered, this.gatherMs ?? Math.min(GATHER_MAX_MS, Math.max(GATHER_MIN_MS, took / 2)));
        } catch (error) {
          this.failed('automine', error);
          break;
        }
      }
    }
  }

  private failed(what: string, error: unknown): void {
    if (!(error instanceof StorageFault)) this.log.error(`${what} failed`, error);
  }

  /**
   * Several senders were just answered, each having waited for its block before sending the next
   * transaction (as test suites and benchmarks send): the next block waits, at most `ms`, until
   * that many more transactions have arrived, so their next ones share it with what is
   * already pending. Otherwise senders split into two groups that take turns — one group's
   * transactions arrive while the other's block is being built — and each group pays a whole
   * block's fixed cost (system calls, state root, write) alone. A lone sender never waits.
   */
  private gathered(answered: number, ms: number): Promise<void> {
    if (answered < 2) return Promise.resolve();
    return new Promise((resolve) => {
      let arrived = 0;
      const done = () => {
        stopListening();
        clearTimeout(timer);
        resolve();
      };
      const stopListening = this.pool.on('added', () => {
        if (++arrived >= answered) done();
      });
      const timer = setTimeout(done, ms);
    });
  }

  private resolve(hashHex: string): void {
    for (const resolve of this.waiters.get(hashHex) ?? []) resolve();
    this.waiters.delete(hashHex);
  }

  /** Lets go of every waiter whose transaction the last rounds did not mine. */
  private release(): void {
    for (const hash of [...this.waiters.keys()]) this.resolve(hash);
  }

  /** Mines what the pool already holds, if automine is on (after a restart, or once storage takes writes again). */
  resume(): void {
    if (this.automine && this.pool.executables().length > 0) void this.kick();
  }

  stop(): void {
    this.setInterval(0);
    this.automine = false;
  }
}
