import { createECDH, createHmac, getCurves, pbkdf2Sync } from 'node:crypto';
import { bigIntToBytes, bytesToBigInt, SECP256K1_ORDER, setLengthLeft } from '@ethereumjs/util';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { nativeCrypto } from './native.js';

const HARDENED = 0x8000_0000;
const CURVE = 'secp256k1';
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
 * m/44'/60'/0'/0 for the dev accounts). The parent is derived once, not once per key. Each step is an
 * HMAC and, on a normal step, the parent's public key: both through node:crypto (OpenSSL, ~0.3 ms a
 * key, where @scure/bip32 on noble takes ~3 ms), so deriving the dev accounts loads no secp256k1
 * library. A Node whose OpenSSL lacks the curve takes the public keys from noble (which native.ts loads
 * anyway), ~10 times slower.
 */
export function deriveChildKeys(seed: Uint8Array, parentPath: string, count: number): Uint8Array[] {
  const parent = parsePath(parentPath).reduce(childNode, masterNode(seed));
  return Array.from({ length: count }, (_, i) => childNode(parent, i).key);
}

/** The 20-byte address of a private key: keccak-256 of its 64-byte public key x ‖ y, last 20 bytes. */
export function addressOf(privateKey: Uint8Array): Uint8Array {
  return (nativeCrypto.keccak256 ?? keccak256)(publicKey(privateKey, 'uncompressed').subarray(1)).slice(12);
}

let curve: boolean | undefined;
const hasCurve = (): boolean => (curve ??= getCurves().includes(CURVE));

/** The public key of a private key, 33 bytes compressed or 65 uncompressed; throws for a key outside [1, n). */
function publicKey(privateKey: Uint8Array, format: 'compressed' | 'uncompressed'): Uint8Array {
  if (!hasCurve()) return secp256k1.getPublicKey(privateKey, format === 'compressed');
  const ecdh = createECDH(CURVE);
  ecdh.setPrivateKey(privateKey);
  return new Uint8Array(ecdh.getPublicKey(undefined, format));
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
function childNode(parent: ExtendedKey, index: number): ExtendedKey {
  const indexBytes = new Uint8Array(4);
  new DataView(indexBytes.buffer).setUint32(0, index);
  const data = index >= HARDENED ? [new Uint8Array([0]), parent.key, indexBytes] : [publicKey(parent.key, 'compressed'), indexBytes];
  const i = hmacSha512(parent.chainCode, ...data);
  const tweak = bytesToBigInt(i.subarray(0, 32));
  const key = (bytesToBigInt(parent.key) + tweak) % SECP256K1_ORDER;
  if (tweak >= SECP256K1_ORDER || key === 0n) throw new Error(`BIP-32 child ${index} is not a valid key; derive the next index`);
  return { key: setLengthLeft(bigIntToBytes(key), 32), chainCode: i.slice(32) };
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
