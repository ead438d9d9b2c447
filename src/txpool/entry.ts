/**
 * What admitting a transaction would do to the pool, decided before anything changes: the
 * transaction decoded and checked by every rule (admission.ts's, then the pool's own: already
 * known, replacement, capacity), and the pooled transaction it replaces or evicts. The pool
 * (pool.ts) then journals and applies the entry under its lock.
 */
import { TransactionType, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, type Address } from '@ethereumjs/util';
import { loadKzg } from '../crypto/kzg.js';
import { effectiveTip, isSufficientBump, maxCost } from '../fees/fees.js';
import { checkAccountRules, checkGasAndPrice, checkIntrinsicRules, recoverSender } from './admission.js';
import { decodeTx, envelopeType } from './decode.js';
import { PoolErrors } from './errors.js';
import { withSender } from './impersonation.js';
import type { PoolIndex } from './pool-index.js';
import { MAX_BLOB_TX_BYTES, PRICE_BUMP_PERCENT, type PoolEnv, type PooledTx } from './types.js';

/** What admission reads of the pool. */
export interface EntryContext {
  index: PoolIndex;
  env: PoolEnv;
  limit: number;
  minGasPrice: bigint;
  maxTxBytes: number;
  /** The state moved on without the pool being told: the sender's transactions it made stale leave first. */
  resync(senderHex: string, nonce: bigint): Promise<unknown>;
}

/** An admitted transaction's entry: the pooled transaction (but its arrival number), and what it takes the place of. */
export interface Entry {
  pooled: Omit<PooledTx, 'seq'>;
  /** its sender's state nonce */
  commitNonce: bigint;
  /** the pooled transaction of the same sender and nonce it replaces */
  replaced?: PooledTx;
  /** the pooled transaction it evicts from a full pool */
  evicted?: PooledTx;
}

/** The entry of `input` (from `impersonated`, whose placeholder signature recovers no sender), or the PoolError it is refused with. */
export async function entryOf(input: Uint8Array, impersonated: Address | undefined, pool: EntryContext): Promise<Entry> {
  const raw = Uint8Array.from(input);
  const blob = envelopeType(raw) === TransactionType.BlobEIP4844;
  const maxBytes = blob ? Math.max(pool.maxTxBytes, MAX_BLOB_TX_BYTES) : pool.maxTxBytes;
  if (raw.length > maxBytes) throw PoolErrors.oversizedData(raw.length, maxBytes);
  // Verifying blobs needs the KZG trusted setup, loaded on the first blob transaction.
  if (blob) await loadKzg();
  const { env, index } = pool;
  const common = env.common;
  const blockGasLimit = env.blockGasLimit();
  const decoded = decodeTx(raw, { common, blockGasLimit });
  const tx = impersonated === undefined ? decoded : withSender(raw, common, impersonated);
  const hash = tx.hash();
  const hashHex = bytesToHex(hash);
  if (index.has(hashHex)) throw PoolErrors.alreadyKnown();

  const ctx = { blockGasLimit, baseFee: env.nextBaseFee(), minGasPrice: pool.minGasPrice };
  checkIntrinsicRules(tx, ctx);
  const sender = impersonated ?? recoverSender(tx);
  checkGasAndPrice(tx, sender, ctx);
  const senderHex = sender.toString();

  const account = await env.account(sender);
  const known = index.senderList(senderHex);
  if (known !== undefined && known.commitNonce !== account.nonce) await pool.resync(senderHex, account.nonce);
  const list = index.senderList(senderHex);
  const existing = list?.get(tx.nonce);
  let pendingCost = list?.pendingCost ?? 0n;
  let replacedCost: bigint | undefined;
  if (existing !== undefined && list!.isPending(tx.nonce)) {
    replacedCost = maxCost(existing.tx);
    pendingCost -= replacedCost;
  }
  checkAccountRules(tx, account, pendingCost, replacedCost);

  const pooled = { tx, hash, hashHex, sender, senderHex, raw, nonce: tx.nonce, impersonated: impersonated !== undefined };
  if (existing !== undefined) {
    if (!isSufficientBump(existing.tx, tx, PRICE_BUMP_PERCENT)) throw PoolErrors.replacementUnderpriced();
    return { pooled, commitNonce: account.nonce, replaced: existing };
  }
  const evicted = index.count >= pool.limit ? victimFor(index, tx, senderHex, ctx.baseFee) : undefined;
  return { pooled, commitNonce: account.nonce, evicted };
}

/**
 * Pool is full: the newcomer must beat the cheapest pooled tx's effective tip.
 * The victim is the highest-nonce tx of that cheapest tx's sender, so no gap
 * opens inside anyone's pending run.
 */
function victimFor(index: PoolIndex, tx: TypedTransaction, senderHex: string, baseFee: bigint): PooledTx {
  const low = index.cheapest(baseFee);
  if (low === undefined || effectiveTip(tx, baseFee) <= low.tip) throw PoolErrors.poolFull();
  const victim = index.senderList(low.ptx.senderHex)!.highest()!;
  // Evicting the newcomer's own predecessor would leave the newcomer behind a gap.
  if (victim.senderHex === senderHex && victim.nonce < tx.nonce) throw PoolErrors.poolFull();
  return victim;
}
