import { bytesToHex } from '@ethereumjs/util';

/** A JSON-RPC quantity: hex without leading zeros, `0x0` for zero. */
export const toQuantity = (value: bigint | number): string => `0x${value.toString(16)}`;

/** A JSON-RPC data string: every byte, lowercase. */
export const toData = (bytes: Uint8Array): string => bytesToHex(bytes);

/** A quantity-like 32-byte word (r, s) as geth prints it: a quantity, not fixed-width data. */
export const wordToQuantity = (value: bigint): string => toQuantity(value);
