/**
 * Admission checks, in go-ethereum's order (core/txpool/validation.go):
 * stateless rules, sender recovery, then the account-state rules. Pool-level
 * rules (already known, replacement, capacity) live in entry.ts.
 */
import { getCalldataFloorGas, isEOACode7702Tx, type TypedTransaction } from '@ethereumjs/tx';
import { Address, publicToAddress, toChecksumAddress } from '@ethereumjs/util';
import { nativeCrypto } from '../crypto/native.js';

import { PoolErrors } from './errors.js';
import { feeCap, maxCost, tipCap } from '../fees/fees.js';

export interface AdmissionContext {
  blockGasLimit: bigint;
  baseFee: bigint;
  minGasPrice: bigint;
}

/** Rules that need neither the sender nor state. */
export function checkIntrinsicRules(tx: TypedTransaction, ctx: AdmissionContext): void {
  // The tx's own Common copy carries the tx-library params (maxInitCodeSize, ...).
  const common = tx.common;
  if (tx.to === undefined && common.isActivatedEIP(3860)) {
    const limit = common.param('maxInitCodeSize');
    if (BigInt(tx.data.length) > limit) throw PoolErrors.maxInitCodeSize(tx.data.length, limit);
  }
  if (common.isActivatedEIP(7825)) {
    const cap = common.param('maxTransactionGasLimit');
    if (tx.gasLimit > cap) throw PoolErrors.gasLimitTooHigh(cap, tx.gasLimit);
  }
  if (tx.gasLimit > ctx.blockGasLimit) throw PoolErrors.blockGasLimit();
  if (feeCap(tx) < tipCap(tx)) throw PoolErrors.tipAboveFeeCap();
}

/** The address of a public key: the last 20 bytes of its keccak-256, natively where keccak loaded. */
const addressOf = (publicKey: Uint8Array): Uint8Array => (nativeCrypto.keccak256 === undefined ? publicToAddress(publicKey) : nativeCrypto.keccak256(publicKey).slice(12));

/** Recover the sender (the expensive step, done once per transaction). */
export function recoverSender(tx: TypedTransaction): Address {
  if (!tx.isSigned()) throw PoolErrors.invalidSender();
  try {
    return new Address(addressOf(tx.getSenderPublicKey()));
  } catch {
    throw PoolErrors.invalidSender();
  }
}

/** Gas and price rules; the sender is only needed for the base-fee message. */
export function checkGasAndPrice(tx: TypedTransaction, sender: Address, ctx: AdmissionContext): void {
  const intrinsic = tx.getIntrinsicGas();
  if (tx.gasLimit < intrinsic) throw PoolErrors.intrinsicGas(tx.gasLimit, intrinsic);
  if (tx.common.isActivatedEIP(7623)) {
    const floor = getCalldataFloorGas(tx, sender);
    if (tx.gasLimit < floor) throw PoolErrors.floorDataGas(tx.gasLimit, floor);
  }
  const cap = feeCap(tx);
  if (cap < ctx.minGasPrice) throw PoolErrors.underpriced(cap, ctx.minGasPrice);
  if (isEOACode7702Tx(tx) && tx.authorizationList.length === 0) throw PoolErrors.setCodeEmpty();
  if (cap < ctx.baseFee) {
    throw PoolErrors.feeCapTooLow(toChecksumAddress(sender.toString()), cap, ctx.baseFee);
  }
}

export interface AccountView {
  nonce: bigint;
  balance: bigint;
}

/**
 * Nonce and balance rules. `pendingCost` is the summed cost of the sender's
 * other pending txs; `replacedCost` the cost of the tx this one would replace.
 */
export function checkAccountRules(
  tx: TypedTransaction,
  account: AccountView,
  pendingCost: bigint,
  replacedCost: bigint | undefined,
): void {
  if (tx.nonce < account.nonce) throw PoolErrors.nonceTooLow(account.nonce, tx.nonce);
  const cost = maxCost(tx);
  const balance = account.balance;
  if (balance < cost) throw PoolErrors.insufficientFunds(balance, cost);
  if (replacedCost !== undefined) {
    // geth: queued cost includes the tx being replaced; only the bump must fit on top.
    const queued = pendingCost + replacedCost;
    const bump = cost - replacedCost;
    if (balance < queued + bump) throw PoolErrors.insufficientFundsBumped(balance, queued, bump);
  } else if (balance < pendingCost + cost) {
    throw PoolErrors.insufficientFundsQueued(balance, pendingCost, cost);
  }
}
