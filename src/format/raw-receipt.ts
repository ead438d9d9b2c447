import type { TransactionType } from '@ethereumjs/tx';
import { encodeReceipt, Bloom, type TxReceipt } from '@ethereumjs/vm';
import type { StoredReceipt } from '../chain/receipts.js';

/** A receipt in its consensus encoding (the receipts trie's, EIP-2718 typed): what debug_getRawReceipts answers. */
export function encodeStoredReceipt(receipt: StoredReceipt, txType: TransactionType): Uint8Array {
  const bloom = new Bloom();
  for (const [address, topics] of receipt.logs) {
    bloom.add(address);
    for (const topic of topics) bloom.add(topic);
  }
  const fields = { cumulativeBlockGasUsed: receipt.cumulativeGasUsed, bitvector: bloom.bitvector, logs: receipt.logs };
  const consensus: TxReceipt = receipt.stateRoot !== undefined ? { ...fields, stateRoot: receipt.stateRoot } : { ...fields, status: receipt.status ?? 0 };
  return encodeReceipt(consensus, txType);
}
