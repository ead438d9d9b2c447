import { createHmac, pbkdf2Sync } from 'node:crypto';
import { createRequire } from 'node:module';
import { nativeCrypto, nativeKeys, type NativeKeys } from './native.js';

const require = createRequire(import.meta.url);

const HARDENED = 0x8000_0000;
const MNEMONIC_WORD_COUNTS = [12, 15, 18, 21, 24];

/**
 * The BIP-39 seed of a mnemonic: PBKDF2-HMAC-SHA512 over its NFKD form, 2,048 rounds, salt
 * "mnemonic" (no passphrase). node:crypto's PBKDF2 takes ~1 ms where a JavaScript one takes ~50.
 */
export function mnemonicSeed(mnemonic: string): Uint8Array {
  const normal = mnemonic.normalize('NFKD');
  // The word counts BIP-39 defines, as @scure/bip39 checks them (the words themselves are not).
  if (!MNEMONIC_WORD_COUNTS.includes(normal.split(' ').length)) throw new Error('Invalid mnemonic');
  return pbkdf2Sync(normal, 'mnemonic', 2048, 64, 'sha512');
}

/**
 * The private keys at `parentPath`/0 … `parentPath`/(count − 1) of a BIP-32 tree (e.g.
 * m/44'/60'/0'/0 for the dev accounts). The parent is derived once, not once per key; with
 * libsecp256k1 loaded each step is an HMAC and a point multiplication in native code (~0.1 ms, where
 * @scure/bip32 on noble takes ~3 ms). Without it, @scure/bip32 derives them.
 */
export function deriveChildKeys(seed: Uint8Array, parentPath: string, count: number): Uint8Array[] {
  if (nativeKeys === undefined) {
    // Loaded only here: it brings a copy of @noble/curves of its own.
    const { HDKey } = require('ethereum-cryptography/hdkey.js') as typeof import('ethereum-cryptography/hdkey.js');
    const parent = HDKey.fromMasterSeed(seed).derive(parentPath);
    return Array.from({ length: count }, (_, i) => {
      const key = parent.deriveChild(i).privateKey;
      if (key === null) throw new Error(`cannot derive key ${i} of ${parentPath}`);
      return key;
    });
  }
  const parent = parsePath(parentPath).reduce((node, index) => childNode(nativeKeys!, node, index), masterNode(seed));
  return Array.from({ length: count }, (_, i) => childNode(nativeKeys!, parent, i).key);
}

interface ExtendedKey {
  key: Uint8Array;
  chainCode: Uint8Array;
}

const hmacSha512 = (key: Uint8Array | string, ...data: Uint8Array[]): Uint8Array => {
  const hmac = createHmac('sha512', key);
  for (const part of data) hmac.update(part);
  return new Uint8Array(hmac.digest());
};

function masterNode(seed: Uint8Array): ExtendedKey {
  const i = hmacSha512('Bitcoin seed', seed);
  return { key: i.slice(0, 32), chainCode: i.slice(32) };
}

/** BIP-32 CKDpriv. A child key out of range (probability ~2^-127) throws, as @scure/bip32 does. */
function childNode(secp: NativeKeys, parent: ExtendedKey, index: number): ExtendedKey {
  const indexBytes = new Uint8Array(4);
  new DataView(indexBytes.buffer).setUint32(0, index);
  const data = index >= HARDENED ? [new Uint8Array([0]), parent.key, indexBytes] : [secp.publicKey(parent.key, true), indexBytes];
  const i = hmacSha512(parent.chainCode, ...data);
  return { key: secp.addPrivateKeys(parent.key, i.subarray(0, 32)), chainCode: i.slice(32) };
}

function parsePath(path: string): number[] {
  const [root, ...steps] = path.split('/');
  if (root !== 'm') throw new Error(`a derivation path starts with m: ${path}`);
  return steps.map((step) => {
    const hardened = step.endsWith("'");
    const index = Number(hardened ? step.slice(0, -1) : step);
    if (!Number.isInteger(index) || index < 0 || index >= HARDENED) throw new Error(`bad step ${step} in derivation path ${path}`);
    return hardened ? index + HARDENED : index;
  });
}

/** The address of a private key, natively when libsecp256k1 and keccak loaded (undefined otherwise). */
export function nativeAddressOf(privateKey: Uint8Array): Uint8Array | undefined {
  const keccak = nativeCrypto.keccak256;
  if (nativeKeys === undefined || keccak === undefined) return undefined;
  // keccak-256 of the 64-byte public key x ‖ y; the address is its last 20 bytes.
  return keccak(nativeKeys.publicKey(privateKey, false).subarray(1)).slice(12);
}
