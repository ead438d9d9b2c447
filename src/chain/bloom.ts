// The 2048-bit logs bloom of the yellow paper (M3:2045): a header's, a receipt's, and the bits a
// log query tests against them.
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { CACHE_LIMITS, LruCache } from '../caches.js';
import { nativeCrypto } from '../crypto/native.js';

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

/** Bits of recent values by their hex: the same emitters and event signatures come back over and over. */
const recentBits = new LruCache<string, BloomBits>(CACHE_LIMITS.bloomValues);

/** The bloom of some logs, given as the RPC writes them (lowercase hex): each emitter's bits and each topic's. */
export function logsBloom(logs: readonly { address: string; topics: readonly string[] }[]): Uint8Array {
  const bloom = new Uint8Array(256);
  const add = (hex: string) => {
    let bits = recentBits.get(hex);
    if (bits === undefined) {
      bits = bloomBits(hexToBytes(hex as PrefixedHexString));
      recentBits.set(hex, bits);
    }
    for (const [index, mask] of bits) bloom[index] |= mask;
  };
  for (const { address, topics } of logs) {
    add(address);
    for (const topic of topics) add(topic);
  }
  return bloom;
}
