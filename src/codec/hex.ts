/**
 * `0x` and every byte in lowercase hex, by Node's own encoder. @ethereumjs/util's bytesToHex joins
 * two characters at a time: a string of pieces that the answer's JSON.stringify then flattens. Hex
 * and encode measured 5.5 µs against 2.2 µs for a 532-byte trie node, 0.50 against 0.30 for a hash.
 */
export const toHex = (bytes: Uint8Array): `0x${string}` => `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
