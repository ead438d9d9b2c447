/**
 * One sender's pooled transactions, keyed by nonce, with the pending/queued
 * split: pending = the unbroken run starting at commitNonce (the account's
 * nonce in the latest state), queued = everything after the first gap.
 */
import type { Address } from '@ethereumjs/util';

import { maxCost } from '../fees/fees.js';
import type { PooledTx } from './types.js';

export class SenderList {
  readonly byNonce = new Map<bigint, PooledTx>();
  /** Length of the unbroken run starting at commitNonce. */
  pendingCount = 0;
  /** Summed worst-case cost (gas * feeCap + value) of the pending run, for the balance check. */
  pendingCost = 0n;

  constructor(
    readonly sender: Address,
    public commitNonce: bigint,
  ) {}

  get size(): number {
    return this.byNonce.size;
  }

  /** Next nonce after the pending run. */
  pendingEnd(): bigint {
    return this.commitNonce + BigInt(this.pendingCount);
  }

  isPending(nonce: bigint): boolean {
    return nonce >= this.commitNonce && nonce < this.pendingEnd();
  }

  get(nonce: bigint): PooledTx | undefined {
    return this.byNonce.get(nonce);
  }

  /** Insert or replace; a tx landing at the end of the run promotes the queued ones behind it. */
  put(ptx: PooledTx): void {
    const old = this.byNonce.get(ptx.nonce);
    this.byNonce.set(ptx.nonce, ptx);
    if (old !== undefined && this.isPending(ptx.nonce)) this.pendingCost += maxCost(ptx.tx) - maxCost(old.tx);
    if (ptx.nonce === this.pendingEnd()) this.extend();
  }

  /** Remove a nonce; removing inside the pending run demotes everything after it. */
  remove(nonce: bigint): PooledTx | undefined {
    const ptx = this.byNonce.get(nonce);
    if (ptx === undefined) return undefined;
    if (this.isPending(nonce)) {
      for (let n = nonce; n < this.pendingEnd(); n++) this.pendingCost -= maxCost(this.byNonce.get(n)!.tx);
      this.pendingCount = Number(nonce - this.commitNonce);
    }
    this.byNonce.delete(nonce);
    return ptx;
  }

  /** Move to a new state nonce: drop (and return) txs below it, re-derive the run. */
  rebase(commitNonce: bigint): PooledTx[] {
    const stale: PooledTx[] = [];
    for (const [nonce, ptx] of this.byNonce) {
      if (nonce < commitNonce) stale.push(ptx);
    }
    for (const ptx of stale) this.byNonce.delete(ptx.nonce);
    this.commitNonce = commitNonce;
    this.pendingCount = 0;
    this.pendingCost = 0n;
    this.extend();
    return stale.sort(byNonce);
  }

  /** Pending txs, nonce-ascending. */
  pending(): PooledTx[] {
    const out: PooledTx[] = [];
    for (let i = 0; i < this.pendingCount; i++) out.push(this.byNonce.get(this.commitNonce + BigInt(i))!);
    return out;
  }

  /** Queued txs, nonce-ascending. */
  queued(): PooledTx[] {
    const end = this.pendingEnd();
    const out: PooledTx[] = [];
    for (const [nonce, ptx] of this.byNonce) if (nonce >= end) out.push(ptx);
    return out.sort(byNonce);
  }

  /** The highest-nonce tx (evicting it never opens a gap). */
  highest(): PooledTx | undefined {
    let best: PooledTx | undefined;
    for (const ptx of this.byNonce.values()) if (best === undefined || ptx.nonce > best.nonce) best = ptx;
    return best;
  }

  private extend(): void {
    for (let next = this.byNonce.get(this.pendingEnd()); next !== undefined; next = this.byNonce.get(this.pendingEnd())) {
      this.pendingCost += maxCost(next.tx);
      this.pendingCount++;
    }
  }
}

export function byNonce(a: PooledTx, b: PooledTx): number {
  return a.nonce < b.nonce ? -1 : a.nonce > b.nonce ? 1 : 0;
}
