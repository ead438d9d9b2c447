/**
 * Fee arithmetic, in one place: what a transaction offers (fee cap, tip), what it pays in a block
 * (effective tip and gas price), what it may cost at most, and the base fee of the next block.
 * The pool, the miner, the formatters and the fee methods all price transactions through it.
 */
import type { BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { isAccessList2930Tx, isBlob4844Tx, isLegacyTx, type TypedTransaction } from '@ethereumjs/tx';

/** The tip a dev node suggests, as anvil and Hardhat do: enough for any block, cheap for tests. */
export const SUGGESTED_TIP = 1_000_000_000n;

/** EIP-4844: the blob gas of one blob. */
const GAS_PER_BLOB = 131_072n;

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

/** What a transaction pays per gas in a block with `baseFee`: its gas price before London. */
export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  if (baseFee === undefined) return feeCap(tx);
  if (isLegacyTx(tx) || isAccessList2930Tx(tx)) return tx.gasPrice;
  return baseFee + effectiveTip(tx, baseFee);
}

/** Worst-case cost: gasLimit * feeCap + value, plus blobGas * blobFeeCap for blob txs (geth's tx.Cost()). */
export function maxCost(tx: TypedTransaction): bigint {
  const blobCost = isBlob4844Tx(tx) ? BigInt(tx.blobVersionedHashes.length) * GAS_PER_BLOB * tx.maxFeePerBlobGas : 0n;
  return tx.gasLimit * feeCap(tx) + tx.value + blobCost;
}

/**
 * geth's list.Add rule: the replacement must be strictly higher on both fee cap
 * and tip, and at least `bumpPercent` higher on each.
 */
export function isSufficientBump(old: TypedTransaction, next: TypedTransaction, bumpPercent: bigint): boolean {
  const oldCap = feeCap(old);
  const oldTip = tipCap(old);
  const newCap = feeCap(next);
  const newTip = tipCap(next);
  if (newCap <= oldCap || newTip <= oldTip) return false;
  const factor = 100n + bumpPercent;
  return newCap >= (oldCap * factor) / 100n && newTip >= (oldTip * factor) / 100n;
}

/** The base fee of the block after `parent`, whose fork `common` is (zero before London). */
export function baseFeeAfter(parent: BlockHeader, common: Common): bigint {
  return common.isActivatedEIP(1559) ? parent.calcNextBaseFee() : 0n;
}
