import type { BlockHeader } from '@ethereumjs/block';

/**
 * The latest timestamp a requested block may carry: the last second of the year 9999. Every later
 * block needs a later timestamp, so a block near the header's 64-bit ceiling would leave the chain
 * unable to grow — and @ethereumjs/common already misjudges forks for timestamps past 2^53.
 */
export const MAX_REQUESTED_TIMESTAMP = 253_402_300_799n;

/** The clock's settings, as evm_snapshot keeps them; `takenAt` is the wall clock then. */
export interface ClockState {
  offset: bigint;
  next?: bigint;
  interval?: bigint;
  takenAt: bigint;
}

const wallSeconds = () => BigInt(Math.floor(Date.now() / 1000));

/**
 * Where block timestamps come from: the wall clock moved by evm_increaseTime, unless a timestamp
 * was asked for (evm_mine's, evm_setNextBlockTimestamp's) or anvil_setBlockTimestampInterval spaces
 * blocks by a fixed step. Timestamps strictly increase, even for blocks mined within one second.
 *
 * The clock never reads behind the head: a block that had to take its parent's timestamp plus one
 * (blocks mined faster than one a second) moves the clock to it. So evm_increaseTime(n) and a new
 * block move the head by at least n seconds, however fast blocks were mined before.
 */
export class BlockClock {
  /** Where the clock runs from: 0 for the wall clock, else a chain dated in the past runs on from its time ({@link runFrom}). */
  private base = 0n;
  /** What evm_increaseTime and blocks dated ahead moved the clock by, from its base. */
  private offset = 0n;
  private next?: bigint;
  private interval?: bigint;

  constructor(private readonly wall: () => bigint = wallSeconds) {}

  /** What the clock reads now: the wall clock plus the base and the offset. */
  now(): bigint {
    return this.wall() + this.base + this.offset;
  }

  /**
   * From now on the clock runs on from `timestamp` as time passes, not from the wall clock: a chain
   * dated in the past (--timestamp, a fork of an old block) stays in its own time, as anvil's does.
   * evm_increaseTime counts from there.
   */
  runFrom(timestamp: bigint): void {
    this.base = timestamp - this.wall();
    this.offset = 0n;
  }

  /** evm_increaseTime: moves the clock forward; answers the total offset. */
  increase(seconds: bigint): bigint {
    this.offset += seconds;
    return this.offset;
  }

  /** evm_setNextBlockTimestamp: the next block's timestamp, after which the clock runs on from it. */
  setNext(timestamp: bigint): void {
    this.next = timestamp;
  }

  /** anvil_setBlockTimestampInterval: each block `seconds` after its parent; undefined removes it. Answers whether one was set. */
  setInterval(seconds: bigint | undefined): boolean {
    const had = this.interval !== undefined;
    this.interval = seconds;
    return had;
  }

  /** The timestamp of a block on `parent`: `requested`, else the one set for the next block, else the interval's or the clock's. */
  timestampFor(parent: BlockHeader, requested?: bigint): bigint {
    const wanted = requested ?? this.next ?? (this.interval !== undefined ? parent.timestamp + this.interval : this.now());
    return wanted > parent.timestamp ? wanted : parent.timestamp + 1n;
  }

  /**
   * A block with `timestamp` landed (or the chain was opened on it). A timestamp that was asked for
   * moves the clock to it, so the blocks after it follow on from it, as in Hardhat and anvil; one
   * ahead of the clock moves the clock up to it.
   */
  landed(timestamp: bigint, requested: boolean): void {
    if (!requested && this.next === undefined && timestamp <= this.now()) return;
    this.offset = timestamp - this.wall() - this.base;
    this.next = undefined;
  }

  save(): ClockState {
    return { offset: this.offset, next: this.next, interval: this.interval, takenAt: this.wall() };
  }

  /** Back to a saved state, the clock reading again what it read then (evm_revert). */
  restore(saved: ClockState): void {
    this.offset = saved.offset - (this.wall() - saved.takenAt);
    this.next = saved.next;
    this.interval = saved.interval;
  }
}
