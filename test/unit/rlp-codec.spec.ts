import { decode as libraryDecode, encode as libraryEncode, RLP, type Input, type NestedUint8Array } from '@ethereumjs/rlp';
import { expect } from 'chai';

import { useFastRlp } from '../../src/codec/rlp.js';

/** A deterministic stream of numbers, so a failure names the structure that caused it. */
function numbers(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** Bytes and lists of the lengths where RLP's forms change (1, 55/56 bytes, 255/256 bytes of length). */
function structure(random: () => number, depth = 0): NestedUint8Array | Uint8Array {
  if (depth < 3 && random() < 0.4) return Array.from({ length: Math.floor(random() * (depth === 0 ? 20 : 6)) }, () => structure(random, depth + 1));
  const lengths = [0, 1, 1, 2, 20, 32, 55, 56, 57, 255, 256, 70_000];
  const bytes = new Uint8Array(lengths[Math.floor(random() * lengths.length)]);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
  if (bytes.length === 1 && random() < 0.5) bytes[0] &= 0x7f;
  return bytes;
}

const hex = (value: unknown): unknown => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : Array.isArray(value) ? value.map(hex) : value);
const bytesOf = (...values: number[]) => Uint8Array.from(values);

describe('RLP through micro-eth-signer (codec/rlp.ts)', () => {
  before(() => useFastRlp());

  it('encodes bytes and nested lists to the bytes @ethereumjs/rlp encodes', () => {
    const random = numbers(7);
    for (let i = 0; i < 3_000; i++) {
      const value = structure(random);
      expect(Buffer.from(RLP.encode(value)).equals(Buffer.from(libraryEncode(value))), JSON.stringify(hex(value)).slice(0, 200)).to.equal(true);
    }
  });

  it('decodes what it encodes to what @ethereumjs/rlp decodes', () => {
    const random = numbers(11);
    for (let i = 0; i < 3_000; i++) {
      const encoded = libraryEncode(structure(random));
      expect(hex(RLP.decode(encoded))).to.deep.equal(hex(libraryDecode(encoded)));
    }
  });

  it('refuses every malformed encoding @ethereumjs/rlp refuses', () => {
    const malformed: Record<string, Uint8Array> = {
      'an item past the end of its list': bytesOf(0xc2, 0x83, 1, 2, 3),
      'bytes left after the item': bytesOf(0x01, 0x02),
      'a single byte below 0x80 behind a length': bytesOf(0x81, 0x05),
      'a long length with a leading zero': bytesOf(0xb9, 0x00, 0x40, ...new Array<number>(64).fill(1)),
      'a long form for a short string': bytesOf(0xb8, 0x10, ...new Array<number>(16).fill(1)),
      'a long form for a short list': bytesOf(0xf8, 0x02, 1, 2),
      'a string longer than the input': bytesOf(0x85, 1, 2),
      'a list longer than the input': bytesOf(0xc5, 1, 2),
      'a length prefix cut off': bytesOf(0xb9, 0x01),
    };
    for (const [what, input] of Object.entries(malformed)) {
      expect(() => libraryDecode(input), what).to.throw();
      expect(() => RLP.decode(input), what).to.throw();
    }
  });

  it('keeps @ethereumjs/rlp’s own handling of numbers, strings and null', () => {
    const values: Input[] = [0, 1, 127, 128, 1024, 0n, 2n ** 64n, '0x', '0xabc', 'dog', null, [1n, '0x01', 'cat', [null]]];
    for (const value of values) expect(Buffer.from(RLP.encode(value)).toString('hex'), String(value)).to.equal(Buffer.from(libraryEncode(value)).toString('hex'));
  });

  it('decodes an empty input to empty bytes, as @ethereumjs/rlp does', () => {
    expect(RLP.decode(new Uint8Array(0))).to.deep.equal(new Uint8Array(0));
  });

  it('reads one item off a stream and answers the rest', () => {
    const { data, remainder } = RLP.decode(bytesOf(0x82, 1, 2, 0x03), true);
    expect(hex(data)).to.equal('0102');
    expect(hex(remainder)).to.equal('03');
  });
});
