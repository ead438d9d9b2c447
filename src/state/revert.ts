import { bytesToHex, bytesToUtf8 } from '@ethereumjs/util';

const ERROR_SELECTOR = '0x08c379a0';
const PANIC_SELECTOR = '0x4e487b71';

/** Solidity's panic codes in geth's words (which are ethers'). */
const PANIC_REASONS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
};

/** A `Panic(uint256)` revert's code and its meaning (undefined for a code Solidity does not define). */
export function panicOf(data: Uint8Array): { code: bigint; reason: string | undefined } | undefined {
  if (data.length < 4 + 32 || bytesToHex(data.subarray(0, 4)) !== PANIC_SELECTOR) return undefined;
  const code = BigInt(bytesToHex(data.subarray(4, 36)));
  return { code, reason: code < 0x100n ? PANIC_REASONS[Number(code)] : undefined };
}

/**
 * The reason a revert gives, as geth reads it: the message of Solidity's `Error(string)`, or the
 * meaning of a `Panic(uint256)` code; undefined for any other revert data.
 */
export function revertReason(data: Uint8Array): string | undefined {
  const panic = panicOf(data);
  if (panic !== undefined) return panic.reason ?? `unknown panic code: 0x${panic.code.toString(16)}`;
  const selector = data.length >= 4 ? bytesToHex(data.subarray(0, 4)) : undefined;
  if (selector !== ERROR_SELECTOR || data.length < 4 + 64) return undefined;
  const body = data.subarray(4);
  const word = (at: number) => {
    if (at + 32 > body.length) return undefined;
    const value = BigInt(bytesToHex(body.subarray(at, at + 32)));
    return value > BigInt(body.length) ? undefined : Number(value);
  };
  const offset = word(0);
  if (offset === undefined) return undefined;
  const length = word(offset);
  if (length === undefined || offset + 32 + length > body.length) return undefined;
  try {
    return bytesToUtf8(body.subarray(offset + 32, offset + 32 + length));
  } catch {
    return undefined;
  }
}
