import type { TransactionType } from '@ethereumjs/tx';
import type { TxReceipt } from '@ethereumjs/vm';
import type { StoredReceipt } from '../chain/receipts.js';
import type { VmLibrary } from '../state/vm.js';

/**
 * A receipt in its consensus encoding (the receipts trie's, EIP-2718 typed): what debug_getRawReceipts
 * answers. The encoder is the VM library's, which its caller loads (state/vm.ts loadVmLibrary).
 */
export function encodeStoredReceipt({ encodeReceipt, Bloom }: VmLibrary, receipt: StoredReceipt, txType: TransactionType): Uint8Array {
  const bloom = new Bloom();
  for (const [address, topics] of receipt.logs) {
    bloom.add(address);
    for (const topic of topics) bloom.add(topic);
  }
  const fields = { cumulativeBlockGasUsed: receipt.cumulativeGasUsed, bitvector: bloom.bitvector, logs: receipt.logs };
  const consensus: TxReceipt = receipt.stateRoot !== undefined ? { ...fields, stateRoot: receipt.stateRoot } : { ...fields, status: receipt.status ?? 0 };
  return encodeReceipt(consensus, txType);
}
