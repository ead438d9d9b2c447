// The bundle's edits to packages' sources (scripts/bundle-patches.mjs): each edited module answers as
// the original does, and an edit that no longer finds its text stops the build.
import { expect } from 'chai';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const UTIL_ESM = dirname(createRequire(import.meta.url).resolve('@ethereumjs/util')).replace(/[\\/]cjs$/, '/esm');

interface Patches {
  patchSource(path: string, source: string): string;
}
const patches = (): Promise<Patches> => import(pathToFileURL(join(ROOT, 'scripts', 'bundle-patches.mjs')).href) as Promise<Patches>;

interface UtilBytes {
  bytesToBigInt(bytes: Uint8Array, littleEndian?: boolean): bigint;
  bigIntToBytes(value: bigint, littleEndian?: boolean): Uint8Array;
  setLengthLeft(msg: Uint8Array, length: number, opts?: { allowTruncate?: boolean }): Uint8Array;
  setLengthRight(msg: Uint8Array, length: number, opts?: { allowTruncate?: boolean }): Uint8Array;
}

describe('bundle patches', () => {
  describe("@ethereumjs/util's byte helpers", () => {
    let scratch: string;
    let original: UtilBytes;
    let patched: UtilBytes;

    before(async () => {
      const { patchSource } = await patches();
      // Inside the project, so the modules' own imports resolve from node_modules as the package's do.
      scratch = mkdtempSync(join(ROOT, 'dist', 'patched-'));
      cpSync(UTIL_ESM, scratch, { recursive: true });
      for (const name of ['bytes.js', 'internal.js']) {
        const file = join(scratch, name);
        writeFileSync(file, patchSource(join(UTIL_ESM, name), readFileSync(file, 'utf8')));
      }
      patched = (await import(pathToFileURL(join(scratch, 'bytes.js')).href)) as UtilBytes;
      original = (await import(pathToFileURL(join(UTIL_ESM, 'bytes.js')).href)) as UtilBytes;
    });
    after(() => rmSync(scratch, { recursive: true, force: true }));

    it('are edited: no 65,536 cached numbers, no spreads, no match arrays', () => {
      const bytes = readFileSync(join(scratch, 'bytes.js'), 'utf8');
      expect(bytes).not.to.include('256 * 256 - 1');
      expect(bytes).not.to.include('...new Uint8Array(length - msg.length)');
      expect(readFileSync(join(scratch, 'internal.js'), 'utf8')).not.to.include('.match(/^0x[0-9A-Fa-f]*$/)');
    });

    it('bytesToBigInt gives the same number for every one- and two-byte input, and longer ones, either byte order', () => {
      expect(patched.bytesToBigInt(new Uint8Array())).to.equal(original.bytesToBigInt(new Uint8Array()));
      for (let value = 0; value < 65_536; value++) {
        const bytes = value < 256 ? Uint8Array.of(value) : Uint8Array.of(value >> 8, value & 0xff);
        expect(patched.bytesToBigInt(bytes)).to.equal(original.bytesToBigInt(bytes));
        expect(patched.bytesToBigInt(bytes, true)).to.equal(original.bytesToBigInt(bytes, true));
      }
      for (let length = 3; length <= 40; length++) {
        const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + length * 31) & 0xff);
        expect(patched.bytesToBigInt(bytes), `${length} bytes`).to.equal(original.bytesToBigInt(bytes));
      }
      expect(() => patched.bytesToBigInt('0x01' as unknown as Uint8Array)).to.throw();
    });

    it('bigIntToBytes gives the same bytes for numbers of every length, either byte order, and refuses negative ones alike', () => {
      const numbers = [0n, 1n, 15n, 16n, 255n, 256n, 65_535n, 65_536n, 2n ** 64n - 1n, 2n ** 255n, 2n ** 256n - 1n, 10n ** 30n];
      for (let bits = 1n; bits <= 300n; bits += 7n) numbers.push((1n << bits) - 1n, (1n << bits) + 12_345n);
      for (const n of numbers) {
        expect([...patched.bigIntToBytes(n)], String(n)).to.deep.equal([...original.bigIntToBytes(n)]);
        expect([...patched.bigIntToBytes(n, true)], String(n)).to.deep.equal([...original.bigIntToBytes(n, true)]);
        expect(patched.bigIntToBytes(n)).to.be.instanceOf(Uint8Array);
        expect(Buffer.isBuffer(patched.bigIntToBytes(n))).to.equal(Buffer.isBuffer(original.bigIntToBytes(n)));
      }
      for (const n of [-1n, -255n, -(2n ** 70n)]) {
        expect(() => original.bigIntToBytes(n)).to.throw();
        expect(() => patched.bigIntToBytes(n)).to.throw();
      }
    });

    it('setLengthLeft and setLengthRight pad, keep and refuse as before, and a padded result is a fresh array', () => {
      for (let length = 0; length <= 40; length++) {
        const msg = Uint8Array.from({ length }, (_, i) => i + 1);
        for (const target of [0, 1, 20, 32, 33]) {
          for (const side of ['setLengthLeft', 'setLengthRight'] as const) {
            if (length > target) {
              expect(() => patched[side](msg, target)).to.throw();
              expect([...patched[side](msg, target, { allowTruncate: true })]).to.deep.equal([...original[side](msg, target, { allowTruncate: true })]);
              continue;
            }
            const out = patched[side](msg, target);
            expect([...out], `${side} ${length} → ${target}`).to.deep.equal([...original[side](msg, target)]);
            expect(out === msg).to.equal(original[side](msg, target) === msg);
          }
        }
      }
    });

    it('isHexString answers as before', async () => {
      const internal = (dir: string) => import(pathToFileURL(join(dir, 'internal.js')).href) as Promise<{ isHexString(value: unknown, length?: number): boolean }>;
      const [was, is] = [await internal(UTIL_ESM), await internal(scratch)];
      for (const value of ['0x', '0x0', '0xAbC', '0xg', 'abc', '0x 1', '0X12', '0x12\n', 12, undefined, '0x1234']) {
        for (const length of [undefined, 0, 2, 3]) expect(is.isHexString(value, length), `${String(value)} ${length}`).to.equal(was.isHexString(value, length));
      }
    });
  });

  it('stops the build when an edit no longer finds its text', async () => {
    const { patchSource } = await patches();
    const path = join(UTIL_ESM, 'bytes.js');
    expect(() => patchSource(path, 'export const bytesToBigInt = () => 0n;')).to.throw(/expected exactly one/);
    expect(patchSource('/elsewhere/bytes.js', 'unchanged')).to.equal('unchanged');
  });
});
