import { bytesToHex } from '@ethereumjs/util';

/** A JSON-RPC quantity: hex without leading zeros, `0x0` for zero. */
export const toQuantity = (value: bigint | number): string => `0x${value.toString(16)}`;

/** A JSON-RPC data string: every byte, lowercase. */
export const toData = (bytes: Uint8Array): string => bytesToHex(bytes);
