// What a mined transaction's failure was, in words: the revert reason decoded, or the EVM's halt.
import { bytesToHex } from '@ethereumjs/util';
import type { RunTxResult } from '@ethereumjs/vm';
import { panicOf, revertReason } from '../state/revert.js';
import { printable } from '../printable.js';

/** A revert's data in words: its reason string, its panic, its custom error's selector, or none. */
export function describeRevert(data: Uint8Array): string {
  if (data.length === 0) return 'reverted without a reason';
  const panic = panicOf(data);
  if (panic !== undefined) return `reverted with panic code 0x${panic.code.toString(16)}${panic.reason === undefined ? '' : ` (${panic.reason})`}`;
  const reason = revertReason(data);
  if (reason !== undefined) return `reverted with: ${printable(reason)}`;
  const hex = bytesToHex(data);
  return `reverted with custom error ${hex.slice(0, 10)}${data.length > 4 ? ` (data ${hex.length > 202 ? `${hex.slice(0, 202)}…` : hex})` : ''}`;
}

/** Why a transaction failed, or undefined when it succeeded. */
export function failureOf(result: RunTxResult): string | undefined {
  const error = result.execResult.exceptionError;
  if (error === undefined) return undefined;
  return error.error === 'revert' ? describeRevert(result.execResult.returnValue) : `halted: ${error.error}`;
}
