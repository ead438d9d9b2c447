/**
 * Transactions from an address whose key the node does not hold (anvil_impersonateAccount,
 * eth_sendUnsignedTransaction). They carry a placeholder signature that commits to the sender —
 * r = 2^160 + the sender's address, s = 1, y-parity 0 — so the same transaction from two senders
 * has different bytes and so a different hash, and a block's transactions root covers who sent
 * what. No key made it, so nobody can recover the sender from it: the node records the sender
 * (the pool's journal, the receipts) and tells the decoded transaction who sent it.
 */
import type { Common } from '@ethereumjs/common';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToBigInt, type Address } from '@ethereumjs/util';

const SENDER_MARK = 1n << 160n;

/** The placeholder signature fields for a transaction from `sender` of the given EIP-2718 type. */
export function impersonationSignature(sender: Address, type: number, common: Common): { v: bigint; r: bigint; s: bigint } {
  const r = SENDER_MARK + bytesToBigInt(sender.bytes);
  if (type !== 0) return { v: 0n, r, s: 1n };
  // A legacy transaction signs its chain id into v (EIP-155) wherever the chain has the rule.
  return { v: common.gteHardfork('spuriousDragon') ? common.chainId() * 2n + 35n : 27n, r, s: 1n };
}

/** `raw`, already checked as the pool checks any transaction, decoded again knowing it came from `sender`. */
export function withSender(raw: Uint8Array, common: Common, sender: Address): TypedTransaction {
  const tx = createTxFromRLP(raw, { common, freeze: false, allowUnlimitedInitCodeSize: true });
  // The EVM asks the transaction for its sender; it must not try to recover one from the placeholder.
  Object.assign(tx, { getSenderAddress: () => sender });
  Object.freeze(tx);
  return tx;
}

/** The sender a transaction's placeholder signature commits to (it was impersonated), or undefined for a real signature. */
export function impersonatedSender(tx: TypedTransaction, sender: Address): Address | undefined {
  return tx.s === 1n && tx.r === SENDER_MARK + bytesToBigInt(sender.bytes) ? sender : undefined;
}
