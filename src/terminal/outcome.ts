// What a mined transaction's failure was, in words: the revert reason decoded, or the EVM's halt.
import { bytesToBigInt, bytesToHex } from '@ethereumjs/util';
import type { RunTxResult } from '@ethereumjs/vm';
import { revertReason } from '../state/revert.js';
import { printable } from '../printable.js';

const PANIC_SELECTOR = '0x4e487b71';

/** Solidity's panic codes (`Panic(uint256)`), as its documentation names them. */
const PANICS: Record<number, string> = {
  0x00: 'generic compiler panic',
  0x01: 'assertion failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division or modulo by zero',
  0x21: 'conversion to an enum out of range',
  0x22: 'incorrectly encoded storage byte array',
  0x31: 'pop() on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'too much memory allocated',
  0x51: 'call to a zero-initialized internal function',
};

/** A revert's data in words: its reason string, its panic, its custom error's selector, or none. */
export function describeRevert(data: Uint8Array): string {
  if (data.length === 0) return 'reverted without a reason';
  const reason = revertReason(data);
  if (reason !== undefined) return `reverted with: ${printable(reason)}`;
  if (data.length === 36 && bytesToHex(data.subarray(0, 4)) === PANIC_SELECTOR) {
    const code = bytesToBigInt(data.subarray(4));
    const name = code <= 0xffn ? PANICS[Number(code)] : undefined;
    return `reverted with panic code 0x${code.toString(16)}${name === undefined ? '' : ` (${name})`}`;
  }
  const hex = bytesToHex(data);
  return `reverted with custom error ${hex.slice(0, 10)}${data.length > 4 ? ` (data ${hex.length > 202 ? `${hex.slice(0, 202)}…` : hex})` : ''}`;
}

/** Why a transaction failed, or undefined when it succeeded. */
export function failureOf(result: RunTxResult): string | undefined {
  const error = result.execResult.exceptionError;
  if (error === undefined) return undefined;
  return error.error === 'revert' ? describeRevert(result.execResult.returnValue) : `halted: ${error.error}`;
}
