/** The 64 nibbles of a 32-byte key hash, as the trie walks them. */
export function nibblesOf(hash: Uint8Array): number[] {
  const nibbles = new Array<number>(hash.length * 2);
  for (let i = 0; i < hash.length; i++) {
    nibbles[2 * i] = hash[i] >> 4;
    nibbles[2 * i + 1] = hash[i] & 15;
  }
  return nibbles;
}

/**
 * A key of `length` bytes (an address, 20; a storage slot, 32) whose hash starts with `path`'s
 * nibbles: a proof of it passes through the trie node at that path. Found by counting, ~16^depth
 * hashes (a few thousand at the depths small tries reach; depth 6 is ~17 million).
 */
export function findPreimage(path: readonly number[], length: number, keccak: (data: Uint8Array) => Uint8Array): Uint8Array {
  const candidate = new Uint8Array(length);
  const view = new DataView(candidate.buffer);
  for (let counter = 0; ; counter++) {
    view.setUint32(length - 4, counter);
    if (counter === 0xffffffff) throw new Error(`no key found under path ${path.join('')}`);
    const hash = keccak(candidate);
    let matches = true;
    for (let i = 0; i < path.length && matches; i++) {
      const nibble = i % 2 === 0 ? hash[i >> 1] >> 4 : hash[i >> 1] & 15;
      matches = nibble === path[i];
    }
    if (matches) return candidate.slice();
  }
}
