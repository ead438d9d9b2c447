// evm_snapshot and evm_revert. A snapshot records the head and its state, the pool's content, the
// block clock and the next-block settings; reverting puts all of them back: the blocks after the
// snapshot's head leave the chain (with their receipts and indexes) in one batch with the pool's
// journal changes, and the clock reads again what it read at the snapshot. Ids are single-use, and
// reverting to one drops every later snapshot too, as in Hardhat and Ganache. Snapshots live in
// memory: a restart forgets them.
import type { Block } from '@ethereumjs/block';
import type { Chain } from '../chain/chain.js';
import type { BlockClock, ClockState } from '../producer/block-clock.js';
import type { Miner } from '../producer/miner.js';
import type { NextBlock, NextBlockState } from '../producer/next-block.js';
import type { TxPool } from '../txpool/pool.js';
import type { PooledTx } from '../txpool/types.js';

interface Snapshot {
  head: Block;
  stateRoot: Uint8Array;
  pool: readonly PooledTx[];
  clock: ClockState;
  next: NextBlockState;
}

export interface SnapshotParts {
  chain: Chain;
  pool: TxPool;
  miner: Miner;
  clock: BlockClock;
  next: NextBlock;
}

export class Snapshots {
  private nextId = 1n;
  private readonly taken = new Map<bigint, Snapshot>();

  constructor(private readonly parts: SnapshotParts) {}

  /** Records the node as it is, between two blocks; answers the snapshot's id. */
  take(): Promise<bigint> {
    const { chain, pool, miner, clock, next } = this.parts;
    return miner.exclusive(async () => {
      const id = this.nextId++;
      this.taken.set(id, { head: chain.head(), stateRoot: chain.headStateRoot(), pool: pool.snapshot(), clock: clock.save(), next: next.save() });
      return id;
    });
  }

  /** The snapshots not used up yet, oldest first, with the head each was taken at. */
  live(): { id: bigint; head: Block }[] {
    return [...this.taken].map(([id, { head }]) => ({ id, head }));
  }

  /** Goes back to snapshot `id`, which is then used up, with every later one; false when there is no such snapshot. */
  async revert(id: bigint): Promise<boolean> {
    const snapshot = this.taken.get(id);
    if (snapshot === undefined) return false;
    for (const later of [...this.taken.keys()]) if (later >= id) this.taken.delete(later);
    const { chain, pool, miner, clock, next } = this.parts;
    await miner.exclusive(async () => {
      await pool.restore(snapshot.pool, (ops) => chain.rewind(snapshot.head, snapshot.stateRoot, { ops }));
      clock.restore(snapshot.clock);
      next.restore(snapshot.next);
    });
    return true;
  }
}
