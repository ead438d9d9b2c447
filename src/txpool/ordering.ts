/**
 * Price ordering: which pending txs go into the next block and in what order,
 * and which pooled tx is the cheapest (eviction candidate).
 */
import { effectiveTip, feeCap } from '../fees/fees.js';
import type { PooledTx } from './types.js';

/** Higher effective tip first, then earlier arrival. */
function better(a: { tip: bigint; ptx: PooledTx }, b: { tip: bigint; ptx: PooledTx }): boolean {
  return a.tip > b.tip || (a.tip === b.tip && a.ptx.seq < b.ptx.seq);
}

interface Head {
  tip: bigint;
  ptx: PooledTx;
  rest: PooledTx[];
  next: number;
}

/** Minimal binary max-heap on `better`. */
class HeadHeap {
  private readonly items: Head[] = [];

  get size(): number {
    return this.items.length;
  }

  push(item: Head): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!better(a[i], a[parent])) break;
      [a[i], a[parent]] = [a[parent], a[i]];
      i = parent;
    }
  }

  pop(): Head | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && better(a[l], a[m])) m = l;
        if (r < a.length && better(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

/**
 * Merge per-sender nonce-ordered runs into block order: always take the best
 * head (effective tip at `baseFee`, ties by arrival). A head whose fee cap is
 * below the base fee stops its sender (later nonces cannot run without it).
 */
export function orderForBlock(runs: Iterable<PooledTx[]>, baseFee: bigint): PooledTx[] {
  const heap = new HeadHeap();
  const offer = (rest: PooledTx[], next: number): void => {
    if (next >= rest.length) return;
    const ptx = rest[next];
    if (feeCap(ptx.tx) < baseFee) return;
    heap.push({ tip: effectiveTip(ptx.tx, baseFee), ptx, rest, next });
  };
  for (const run of runs) offer(run, 0);
  const out: PooledTx[] = [];
  for (let head = heap.pop(); head !== undefined; head = heap.pop()) {
    out.push(head.ptx);
    offer(head.rest, head.next + 1);
  }
  return out;
}

/** The cheapest tx: lowest effective tip at `baseFee`, ties to the latest arrival. */
export function cheapest(txs: Iterable<PooledTx>, baseFee: bigint): { ptx: PooledTx; tip: bigint } | undefined {
  let best: { ptx: PooledTx; tip: bigint } | undefined;
  for (const ptx of txs) {
    const tip = effectiveTip(ptx.tx, baseFee);
    if (best === undefined || tip < best.tip || (tip === best.tip && ptx.seq > best.ptx.seq)) {
      best = { ptx, tip };
    }
  }
  return best;
}
