/** Fee arithmetic shared by admission, replacement, eviction and block ordering. */
import { isAccessList2930Tx, isBlob4844Tx, isLegacyTx, type TypedTransaction } from '@ethereumjs/tx';

/** EIP-4844: the blob gas of one blob. */
const GAS_PER_BLOB = 131_072n;

import { PRICE_BUMP_PERCENT } from './types.js';

/** gasPrice for legacy / 2930, maxFeePerGas otherwise (geth's GasFeeCap). */
export function feeCap(tx: TypedTransaction): bigint {
  return isLegacyTx(tx) || isAccessList2930Tx(tx) ? tx.gasPrice : tx.maxFeePerGas;
}

/** gasPrice for legacy / 2930, maxPriorityFeePerGas otherwise (geth's GasTipCap). */
export function tipCap(tx: TypedTransaction): bigint {
  return isLegacyTx(tx) || isAccessList2930Tx(tx) ? tx.gasPrice : tx.maxPriorityFeePerGas;
}

/**
 * min(tipCap, feeCap - baseFee); for legacy txs that is gasPrice - baseFee.
 * Negative when the fee cap no longer covers the base fee.
 */
export function effectiveTip(tx: TypedTransaction, baseFee: bigint): bigint {
  const tip = tipCap(tx);
  const headroom = feeCap(tx) - baseFee;
  return tip < headroom ? tip : headroom;
}

/** Worst-case cost: gasLimit * feeCap + value, plus blobGas * blobFeeCap for blob txs (geth's tx.Cost()). */
export function maxCost(tx: TypedTransaction): bigint {
  const blobCost = isBlob4844Tx(tx) ? BigInt(tx.blobVersionedHashes.length) * GAS_PER_BLOB * tx.maxFeePerBlobGas : 0n;
  return tx.gasLimit * feeCap(tx) + tx.value + blobCost;
}

/**
 * geth's list.Add rule: the replacement must be strictly higher on both fee cap
 * and tip, and at least PRICE_BUMP_PERCENT higher on each.
 */
export function isSufficientBump(old: TypedTransaction, next: TypedTransaction): boolean {
  const oldCap = feeCap(old);
  const oldTip = tipCap(old);
  const newCap = feeCap(next);
  const newTip = tipCap(next);
  if (newCap <= oldCap || newTip <= oldTip) return false;
  const factor = 100n + PRICE_BUMP_PERCENT;
  return newCap >= (oldCap * factor) / 100n && newTip >= (oldTip * factor) / 100n;
}
