// patches/@ethereumjs+util: the edited byte helpers answer what the unedited ones answer.
import * as util from '@ethereumjs/util';
import { expect } from 'chai';
import { pristineEngine, type PristineEngine } from '../../scripts/difftest/pristine.js';
import { Random } from '../../scripts/difftest/random.js';

/** What a call answers: its value (bytes as hex) or its error's message. */
function answer(call: () => unknown): unknown {
  try {
    const value = call();
    return value instanceof Uint8Array ? { bytes: Buffer.from(value).toString('hex') } : { value };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('patches/@ethereumjs+util', () => {
  let pristine: PristineEngine['util'];
  before(async () => {
    pristine = (await pristineEngine()).util;
  });

  it('bytesToBigInt without the 65,536 cached two-byte values answers as before, big- and little-endian', () => {
    const random = new Random(1);
    const inputs: Uint8Array[] = [new Uint8Array(0), ...Array.from({ length: 256 * 4 }, (_, i) => Uint8Array.of(i >> 8, i & 0xff))];
    for (let i = 0; i < 2_000; i++) inputs.push(random.bytes(random.int(40)));
    for (const bytes of inputs) {
      for (const littleEndian of [false, true]) expect(util.bytesToBigInt(bytes, littleEndian)).to.equal(pristine.bytesToBigInt(bytes, littleEndian));
    }
  });

  it('bigIntToBytes without the prefixed hex string answers as before, negative numbers included', () => {
    const random = new Random(2);
    const inputs = [0n, 1n, 255n, 256n, -1n, -256n, (1n << 256n) - 1n];
    for (let i = 0; i < 2_000; i++) inputs.push(random.chance(0.1) ? -random.word() : random.word());
    for (const value of inputs) {
      for (const littleEndian of [false, true]) expect(answer(() => util.bigIntToBytes(value, littleEndian))).to.deep.equal(answer(() => pristine.bigIntToBytes(value, littleEndian)));
    }
  });

  it('setLengthLeft and setLengthRight pad, truncate and refuse as before', () => {
    const random = new Random(3);
    for (let i = 0; i < 2_000; i++) {
      const bytes = random.bytes(random.int(40));
      const length = random.int(40);
      const opts = { allowTruncate: random.chance(0.5) };
      expect(answer(() => util.setLengthLeft(bytes, length, opts))).to.deep.equal(answer(() => pristine.setLengthLeft(bytes, length, opts)));
      expect(answer(() => util.setLengthRight(bytes, length, opts))).to.deep.equal(answer(() => pristine.setLengthRight(bytes, length, opts)));
    }
  });

  it('isHexString tells hex from not-hex as before', () => {
    const inputs: unknown[] = ['0x', '0x0', '0xabCD', '0xg', 'abcd', '0X12', '', 12, null, undefined, '0x12\n', '0x' + 'f'.repeat(64)];
    for (const value of inputs) {
      for (const length of [undefined, 0, 1, 2, 32]) expect(util.isHexString(value as string, length), String(value)).to.equal(pristine.isHexString(value as string, length));
    }
  });

  it('unpadBytes, unpadArray and unpadHex strip leading zeros as before: a copy when any, the input itself when none, Buffer views as views', () => {
    const random = new Random(4);
    for (let i = 0; i < 2_000; i++) {
      const bytes = random.bytes(random.int(40));
      bytes.fill(0, 0, random.int(bytes.length + 1));
      const [edited, unedited] = [util.unpadBytes(bytes), pristine.unpadBytes(bytes)];
      expect(Buffer.from(edited).toString('hex')).to.equal(Buffer.from(unedited).toString('hex'));
      expect(edited === bytes).to.equal(unedited === bytes);
      expect(answer(() => util.unpadArray([...bytes]))).to.deep.equal(answer(() => pristine.unpadArray([...bytes])));
      const hex = `0x${Buffer.from(bytes).toString('hex').slice(random.int(2))}` as `0x${string}`;
      expect(util.unpadHex(hex)).to.equal(pristine.unpadHex(hex));
    }
    const buffer = Buffer.from([0, 0, 7, 8]);
    expect(util.unpadBytes(buffer)).to.be.instanceOf(Buffer);
    expect(util.unpadBytes(buffer).buffer === buffer.buffer).to.equal(pristine.unpadBytes(buffer).buffer === buffer.buffer);
    for (const bad of [[0, undefined, 1], 'not bytes', [0, 0]]) {
      expect(answer(() => util.unpadArray(bad as number[]))).to.deep.equal(answer(() => pristine.unpadArray(bad as number[])));
      expect(answer(() => util.unpadBytes(bad as unknown as Uint8Array))).to.deep.equal(answer(() => pristine.unpadBytes(bad as unknown as Uint8Array)));
    }
  });
});
