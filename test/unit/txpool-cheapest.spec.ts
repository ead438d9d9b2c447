// The pool's cheapest transaction (the one a full pool gives up first), kept in a heap rather than
// found by a scan: it must always be what a scan of the whole pool finds.
import type { TypedTransaction } from '@ethereumjs/tx';
import { expect } from 'chai';
import { effectiveTip } from '../../src/fees/fees.js';
import { CheapestIndex } from '../../src/txpool/ordering.js';
import type { PooledTx } from '../../src/txpool/types.js';

let seq = 0;
function pooled(maxFeePerGas: bigint, maxPriorityFeePerGas: bigint): PooledTx {
  const n = seq++;
  return { tx: { type: 2, maxFeePerGas, maxPriorityFeePerGas } as unknown as TypedTransaction, hashHex: `0x${n.toString(16).padStart(64, '0')}`, seq: n } as PooledTx;
}

/** Lowest effective tip at `baseFee`, ties to the latest arrival: what the heap must agree with. */
function scan(pool: ReadonlyMap<string, PooledTx>, baseFee: bigint): PooledTx | undefined {
  let best: { ptx: PooledTx; tip: bigint } | undefined;
  for (const ptx of pool.values()) {
    const tip = effectiveTip(ptx.tx, baseFee);
    if (best === undefined || tip < best.tip || (tip === best.tip && ptx.seq > best.ptx.seq)) best = { ptx, tip };
  }
  return best?.ptx;
}

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
}

describe('txpool: the cheapest pooled transaction', () => {
  it('is none in an empty pool', () => {
    expect(new CheapestIndex(new Map()).cheapest(7n)).to.equal(undefined);
  });

  it('is the latest arrival among equally cheap ones', () => {
    const pool = new Map<string, PooledTx>();
    const index = new CheapestIndex(pool);
    const [a, b, c] = [pooled(100n, 5n), pooled(100n, 5n), pooled(100n, 9n)];
    for (const ptx of [a, b, c]) {
      pool.set(ptx.hashHex, ptx);
      index.add(ptx);
    }
    expect(index.cheapest(10n)?.ptx).to.equal(b);
    // At a base fee of 96 every headroom is 4, below each tip: all tie, and c came last.
    expect(index.cheapest(96n)?.ptx).to.equal(c);
  });

  it('lets go of departed transactions while nobody asks (a pool that is not full)', () => {
    const index = new CheapestIndex(new Map());
    index.cheapest(1n);
    // Each arrives and leaves (mined) without the pool asking again: the heap must not keep them all.
    for (let i = 0; i < 1_000; i++) index.add(pooled(5n, 1n));
    expect((index as unknown as { heap: { size: number } }).heap.size).to.be.below(100);
  });

  it('agrees with a scan of the pool through arrivals, departures and base-fee changes', () => {
    const next = random(42);
    const pool = new Map<string, PooledTx>();
    const index = new CheapestIndex(pool);
    let baseFee = 10n;
    for (let step = 0; step < 5_000; step++) {
      const roll = next(100);
      if (roll < 55 || pool.size === 0) {
        const ptx = pooled(BigInt(next(60)), BigInt(next(30)));
        pool.set(ptx.hashHex, ptx);
        index.add(ptx);
      } else if (roll < 90) {
        const keys = [...pool.keys()];
        pool.delete(keys[next(keys.length)]);
      } else if (roll < 97) {
        baseFee = BigInt(next(50));
      } else {
        pool.clear();
      }
      expect(index.cheapest(baseFee)?.ptx, `step ${step}`).to.equal(scan(pool, baseFee));
    }
  });
});
