/** A JSON-RPC quantity: hex without leading zeros, `0x0` for zero. */
export const toQuantity = (value: bigint | number): string => `0x${value.toString(16)}`;

/** A JSON-RPC data string: every byte, lowercase. */
export { toHex as toData } from '../codec/hex.js';

/**
 * The bytes of a hex data string the contract's pattern already checked (`0x`, then hex digits in
 * either case), an odd count of digits read with a leading zero as @ethereumjs/util reads it. Node's
 * own hex decoder: several times faster than the library's, which checks the string again first.
 */
export const fromData = (hex: string): Uint8Array => {
  const digits = hex.length % 2 === 0 ? hex.slice(2) : `0${hex.slice(2)}`;
  const decoded = Buffer.from(digits, 'hex');
  // A plain Uint8Array over the same memory: a Buffer's slice() is a view, where callers expect a copy.
  return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength);
};
