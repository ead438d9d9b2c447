// The 2048-bit logs bloom of the yellow paper (M3:2045): a header's, a receipt's, and the bits a
// log query tests against them.
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { nativeCrypto } from '../crypto/native.js';
import type { RawLog } from '../storage/layout.js';

/** One value's three bloom bits, as (byte index, mask) pairs. */
export type BloomBits = ReadonlyArray<readonly [number, number]>;

const hash = nativeCrypto.keccak256 ?? keccak256;

export function bloomBits(value: Uint8Array): BloomBits {
  const digest = hash(value);
  const bits: [number, number][] = [];
  for (let i = 0; i < 6; i += 2) {
    const bit = ((digest[i] << 8) | digest[i + 1]) & 2047;
    bits.push([255 - (bit >> 3), 1 << (bit & 7)]);
  }
  return bits;
}

/** The bloom of some logs: each emitter's bits and each topic's. */
export function logsBloom(logs: readonly RawLog[]): Uint8Array {
  const bloom = new Uint8Array(256);
  const add = (value: Uint8Array) => {
    for (const [index, mask] of bloomBits(value)) bloom[index] |= mask;
  };
  for (const [address, topics] of logs) {
    add(address);
    for (const topic of topics) add(topic);
  }
  return bloom;
}
