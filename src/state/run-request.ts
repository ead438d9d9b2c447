import type { TypedTransaction } from '@ethereumjs/tx';
import { bigIntToHex, bytesToHex, type Address } from '@ethereumjs/util';
import type { TransactionCall } from '../../generated/types.js';

/**
 * A run (a call, a transaction being mined) as a forked chain's remote is asked about it
 * (eth_createAccessList, fork/run-access-list.ts): hex fields, without fees (the remote fills them
 * in). No `from`: the remote's default sender.
 */
export interface RunRequest {
  from?: string;
  to?: string;
  data?: string;
  value?: string;
  gas?: string;
}

/** An access list's entry as transactions hold it: an address and its storage keys, 32 bytes each. */
export type ListedKeys = readonly [address: Uint8Array, slots: readonly Uint8Array[]];

/** A call object's run. */
export function callRequest(request: TransactionCall): RunRequest {
  const data = request.input ?? request.data;
  return { from: request.from, to: request.to ?? undefined, data: data ?? undefined, value: request.value, gas: request.gas };
}

/** A transaction's run, from `sender`. */
export function txRequest(tx: TypedTransaction, sender: Address): RunRequest {
  return { from: sender.toString(), to: tx.to?.toString(), data: bytesToHex(tx.data), value: bigIntToHex(tx.value), gas: bigIntToHex(tx.gasLimit) };
}
