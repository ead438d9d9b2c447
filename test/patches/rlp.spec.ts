// patches/@ethereumjs+rlp: the edited codec encodes to the same bytes, and decodes to the same items or fails
// with the same error, as the unedited one.
import { RLP, type Input, type NestedUint8Array } from '@ethereumjs/rlp';
import { expect } from 'chai';
import { pristineEngine, type PristineEngine } from '../../scripts/difftest/pristine.js';
import { Random } from '../../scripts/difftest/random.js';

/** Bytes and lists of the lengths where RLP's forms change (1, 55/56 bytes, 255/256 bytes, 65,535/65,536 bytes of length). */
function structure(random: Random, depth = 0): NestedUint8Array | Uint8Array {
  if (depth < 3 && random.chance(0.4)) return Array.from({ length: random.int(depth === 0 ? 20 : 6) }, () => structure(random, depth + 1));
  const bytes = random.bytes(random.chance(0.002) ? random.pick([65_535, 65_536, 70_000]) : random.pick([0, 1, 1, 2, 20, 32, 55, 56, 57, 255, 256, 1024]));
  if (bytes.length === 1 && random.chance(0.5)) bytes[0]! &= 0x7f;
  return bytes;
}

const hex = (value: unknown): unknown => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : Array.isArray(value) ? value.map(hex) : value);

function decoded(decode: (input: Input) => unknown, input: Uint8Array): unknown {
  try {
    return { items: hex(decode(input)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** `bytes` with a few bytes changed, cut short or added to. */
function damaged(random: Random, bytes: Uint8Array): Uint8Array {
  let out = Uint8Array.from(bytes);
  for (let i = random.int(3); i >= 0; i--) {
    const at = random.int(out.length + 1);
    const kind = random.int(3);
    if (kind === 0 && out.length > 0) out[Math.min(at, out.length - 1)] = random.int(256);
    else if (kind === 1) out = out.subarray(0, at);
    else {
      const longer = new Uint8Array(out.length + 1);
      longer.set(out.subarray(0, at));
      longer[at] = random.int(256);
      longer.set(out.subarray(at), at + 1);
      out = longer;
    }
  }
  return out;
}

describe('patches/@ethereumjs+rlp', () => {
  let pristine: PristineEngine['rlp']['RLP'];
  before(async () => {
    pristine = (await pristineEngine()).rlp.RLP;
  });

  it('encodes bytes and nested lists to the bytes the unedited codec encodes', () => {
    const random = new Random(7);
    for (let i = 0; i < 3_000; i++) {
      const value = structure(random);
      expect(hex(RLP.encode(value)), JSON.stringify(hex(value)).slice(0, 200)).to.equal(hex(pristine.encode(value)));
    }
  });

  it('hands back a one-byte input below 0x80 itself, as the unedited codec does', () => {
    const input = Uint8Array.of(0x42);
    expect(RLP.encode(input)).to.equal(input);
    expect(pristine.encode(input)).to.equal(input);
  });

  it('encodes strings, numbers, bigints and null in lists as the unedited codec does', () => {
    const inputs: Input[] = ['dog', '0x0400', 0, 1, 1024, 2n ** 70n, null, ['cat', [7, 'x'], new Uint8Array(60)], []];
    for (const input of inputs) expect(hex(RLP.encode(input))).to.equal(hex(pristine.encode(input)));
  });

  it('decodes every encoding, and every damaged one, to the same items or the same error', () => {
    const random = new Random(11);
    let refused = 0;
    for (let i = 0; i < 6_000; i++) {
      const encoding = pristine.encode(structure(random));
      const input = i % 2 === 0 ? encoding : damaged(random, encoding);
      const ours = decoded(RLP.decode, input);
      expect(ours, Buffer.from(input).toString('hex').slice(0, 200)).to.deep.equal(decoded(pristine.decode, input));
      if ('error' in (ours as object)) refused++;
    }
    expect(refused).to.be.greaterThan(500);
  });

  it('decodes the non-canonical forms each check refuses with the same error', () => {
    const cases = ['8100', '8180', 'b800', 'b838' + '00'.repeat(56), 'b90038' + '00'.repeat(56), 'f800', 'f838', 'f90038' + 'c0'.repeat(56), 'c3c0c0', 'c0c0', '83ab', '', 'b9', 'c281'];
    for (const text of cases) {
      const input = Uint8Array.from(Buffer.from(text, 'hex'));
      expect(decoded(RLP.decode, input), text).to.deep.equal(decoded(pristine.decode, input));
    }
  });

  it('decodes a stream, and hex strings, as the unedited codec does', () => {
    const input = Uint8Array.from(Buffer.from('c3010203c0', 'hex'));
    expect(hex(RLP.decode(input, true).data)).to.deep.equal(hex(pristine.decode(input, true).data));
    expect(hex(RLP.decode(input, true).remainder)).to.deep.equal(hex(pristine.decode(input, true).remainder));
    expect(hex(RLP.decode('0xc3010203'))).to.deep.equal(hex(pristine.decode('0xc3010203')));
  });
});
