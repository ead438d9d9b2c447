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

type BytesToBigInt = (bytes: Uint8Array, littleEndian?: boolean) => bigint;

describe('bundle patches', () => {
  describe("@ethereumjs/util's bytesToBigInt without its 65,536 cached numbers", () => {
    let scratch: string;
    let original: BytesToBigInt;
    let patched: BytesToBigInt;

    before(async () => {
      const { patchSource } = await patches();
      // Inside the project, so the module's own imports resolve from node_modules as the package's do.
      scratch = mkdtempSync(join(ROOT, 'dist', 'patched-'));
      cpSync(UTIL_ESM, scratch, { recursive: true });
      const file = join(scratch, 'bytes.js');
      writeFileSync(file, patchSource(join(UTIL_ESM, 'bytes.js'), readFileSync(file, 'utf8')));
      patched = ((await import(pathToFileURL(file).href)) as { bytesToBigInt: BytesToBigInt }).bytesToBigInt;
      original = ((await import(pathToFileURL(join(UTIL_ESM, 'bytes.js')).href)) as { bytesToBigInt: BytesToBigInt }).bytesToBigInt;
    });
    after(() => rmSync(scratch, { recursive: true, force: true }));

    it('is edited: it no longer fills the cache up to 65,535', () => {
      const source = readFileSync(join(scratch, 'bytes.js'), 'utf8');
      expect(source).not.to.include('256 * 256 - 1');
      expect(source).to.include('BigInt(bytes[0] * 256 + bytes[1])');
    });

    it('gives the same number for every one- and two-byte input, and longer ones, either byte order', () => {
      expect(patched(new Uint8Array())).to.equal(original(new Uint8Array()));
      for (let value = 0; value < 65_536; value++) {
        const bytes = value < 256 ? Uint8Array.of(value) : Uint8Array.of(value >> 8, value & 0xff);
        expect(patched(bytes)).to.equal(original(bytes));
        expect(patched(bytes, true)).to.equal(original(bytes, true));
      }
      for (let length = 3; length <= 40; length++) {
        const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + length * 31) & 0xff);
        expect(patched(bytes), `${length} bytes`).to.equal(original(bytes));
      }
    });

    it('still refuses what is not bytes', () => {
      expect(() => patched('0x01' as unknown as Uint8Array)).to.throw();
      expect(() => original('0x01' as unknown as Uint8Array)).to.throw();
    });
  });

  it('stops the build when an edit no longer finds its text', async () => {
    const { patchSource } = await patches();
    const path = join(UTIL_ESM, 'bytes.js');
    expect(() => patchSource(path, 'export const bytesToBigInt = () => 0n;')).to.throw(/expected exactly one/);
    expect(patchSource('/elsewhere/bytes.js', 'unchanged')).to.equal('unchanged');
  });
});
