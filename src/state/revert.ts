import { bytesToHex, bytesToUtf8 } from '@ethereumjs/util';

const ERROR_SELECTOR = '0x08c379a0';

/** The reason string of a revert that carries Solidity's `Error(string)`, if it does. */
export function revertReason(data: Uint8Array): string | undefined {
  if (data.length < 4 + 64 || bytesToHex(data.subarray(0, 4)) !== ERROR_SELECTOR) return undefined;
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
