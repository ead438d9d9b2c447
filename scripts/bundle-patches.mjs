// Edits the bundle makes to the source of a package as it takes it in (scripts/bundle.mjs), each for a
// cost measured in the node and each with a spec that holds the edited code to the original's answers
// (test/unit/bundle-patches.spec.ts). An edit whose text is no longer in the package fails the build:
// a new version of the package has to be looked at again, not bundled unedited without a word.
import { readFile } from 'node:fs/promises';

/** A module of @ethereumjs/util's ES build, as esbuild names its path. */
const utilModule = (name) => new RegExp(`[\\\\/]@ethereumjs[\\\\/]util[\\\\/]dist[\\\\/]esm[\\\\/]${name}\\.js$`);

/**
 * @ethereumjs/util keeps a BigInt for each of the 65,536 two-byte values, made as the module loads, for
 * bytesToBigInt: 2.1 MB of the idle node's 11 MB of live heap (the numbers and the array holding them).
 * One-byte values stay cached; a two-byte value is made when asked for, as the library makes every
 * longer one.
 */
const bigintCache = {
  file: utilModule('bytes'),
  edits: [
    ['for (let i = 0; i <= 256 * 256 - 1; i++) {', 'for (let i = 0; i <= 255; i++) {'],
    ['return BIGINT_CACHE[bytes[0] * 256 + bytes[1]];', 'return BigInt(bytes[0] * 256 + bytes[1]);'],
  ],
};

/**
 * @ethereumjs/util's byte helpers, which the EVM calls for every word it stores, hashes or loads (an
 * eth_call of an ERC-20 balanceOf spent ~6 % of its CPU in them, besides the garbage they leave):
 * padding built through two array spreads, a bigint's bytes through a prefixed hex string that is
 * checked with a regular expression and stripped again, and that check allocating a match array.
 */
const byteHelpers = {
  file: utilModule('bytes'),
  edits: [
    [
      `        return right
            ? new Uint8Array([...msg, ...new Uint8Array(length - msg.length)])
            : new Uint8Array([...new Uint8Array(length - msg.length), ...msg]);`,
      `        const padded = new Uint8Array(length);
        padded.set(msg, right ? 0 : length - msg.length);
        return padded;`,
    ],
    [
      'const bytes = hexToBytes(`0x${padToEven(num.toString(16))}`);',
      'const bytes = num < BIGINT_0 ? hexToBytes(`0x${padToEven(num.toString(16))}`) : hexToBytesNoble(padToEven(num.toString(16)));',
    ],
  ],
};

const hexCheck = {
  file: utilModule('internal'),
  edits: [["if (typeof value !== 'string' || !value.match(/^0x[0-9A-Fa-f]*$/))", "if (typeof value !== 'string' || !/^0x[0-9A-Fa-f]*$/.test(value))"]],
};

export const PATCHES = [bigintCache, byteHelpers, hexCheck];

/** `source` of the file at `path` with every edit meant for it made; throws when an edit's text is not there once. */
export function patchSource(path, source) {
  let out = source;
  for (const { file, edits } of PATCHES) {
    if (!file.test(path)) continue;
    for (const [from, to] of edits) {
      const at = out.indexOf(from);
      if (at === -1 || out.indexOf(from, at + 1) !== -1) {
        throw new Error(`bundle patch for ${path}: expected exactly one "${from}" (a new version of the package? look at it again)`);
      }
      out = out.slice(0, at) + to + out.slice(at + from.length);
    }
  }
  return out;
}

/** The esbuild plugin that makes the edits. */
export const patchesPlugin = {
  name: 'bundle-patches',
  setup(build) {
    const files = new Map(PATCHES.map(({ file }) => [String(file), file]));
    for (const file of files.values()) {
      build.onLoad({ filter: file }, async ({ path }) => ({ contents: patchSource(path, await readFile(path, 'utf8')), loader: 'js' }));
    }
  },
};
