/**
 * Price ordering: which pending txs go into the next block and in what order,
 * and which pooled tx is the cheapest (eviction candidate).
 */
import { effectiveTip, feeCap } from '../fees/fees.js';
import type { PooledTx } from './types.js';

/** A pooled transaction with its effective tip at some base fee. */
interface Priced {
  ptx: PooledTx;
  tip: bigint;
}

/** Higher effective tip first, then earlier arrival. */
function better(a: Priced, b: Priced): boolean {
  return a.tip > b.tip || (a.tip === b.tip && a.ptx.seq < b.ptx.seq);
}

interface Head extends Priced {
  rest: PooledTx[];
  next: number;
}

/** A binary heap: `first(a, b)` says whether a comes out before b. */
class BinaryHeap<T> {
  constructor(
    private readonly first: (a: T, b: T) => boolean,
    private items: T[] = [],
  ) {
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.first(a[i], a[parent])) break;
      [a[i], a[parent]] = [a[parent], a[i]];
      i = parent;
    }
  }

  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0) {
      a[0] = last!;
      this.down(0);
    }
    return top;
  }

  private down(i: number): void {
    const a = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.first(a[l], a[m])) m = l;
      if (r < a.length && this.first(a[r], a[m])) m = r;
      if (m === i) return;
      [a[i], a[m]] = [a[m], a[i]];
      i = m;
    }
  }
}

/**
 * Merge per-sender nonce-ordered runs into block order: always take the best
 * head (effective tip at `baseFee`, ties by arrival). A head whose fee cap is
 * below the base fee stops its sender (later nonces cannot run without it).
 */
export function orderForBlock(runs: Iterable<PooledTx[]>, baseFee: bigint): PooledTx[] {
  const heap = new BinaryHeap<Head>(better);
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

/** The block order reversed: the order in which pooled transactions are given up. */
const cheaper = (a: Priced, b: Priced): boolean => better(b, a);

/**
 * The cheapest pooled transaction (lowest effective tip at a base fee, ties to the latest arrival),
 * kept in a heap: a full pool asks for it at every admission, and a scan of 10,000 pooled
 * transactions took ~200 µs each time. Prices hold for one base fee; asked at another (a block has
 * landed) the heap is built again from the pool. Transactions that left the pool are dropped as they
 * come to the top; when they outnumber the pooled ones the heap is dropped (it holds on to them) and
 * built again when next asked.
 */
export class CheapestIndex {
  private heap = new BinaryHeap<Priced>(cheaper);
  private baseFee: bigint | undefined;

  constructor(private readonly pool: ReadonlyMap<string, PooledTx>) {}

  /** A transaction that just entered the pool. */
  add(ptx: PooledTx): void {
    if (this.baseFee === undefined) return;
    if (this.stale()) {
      // Nobody has asked for a while (the pool is not full): let the departed go, build again when asked.
      this.heap = new BinaryHeap<Priced>(cheaper);
      this.baseFee = undefined;
      return;
    }
    this.heap.push({ ptx, tip: effectiveTip(ptx.tx, this.baseFee) });
  }

  cheapest(baseFee: bigint): Priced | undefined {
    if (baseFee !== this.baseFee || this.stale()) {
      this.baseFee = baseFee;
      this.heap = new BinaryHeap(cheaper, [...this.pool.values()].map((ptx) => ({ ptx, tip: effectiveTip(ptx.tx, baseFee) })));
    }
    for (let top = this.heap.peek(); top !== undefined && this.pool.get(top.ptx.hashHex) !== top.ptx; top = this.heap.peek()) this.heap.pop();
    return this.heap.peek();
  }

  /** Whether the heap holds more departed transactions than pooled ones. */
  private stale(): boolean {
    return this.heap.size > 2 * this.pool.size + 64;
  }
}
