import { createRequire } from 'node:module';
import type { CustomCrypto } from '@ethereumjs/common';
import { calculateSigRecovery, ecrecover, setLengthLeft } from '@ethereumjs/util';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak256 as keccakInJs } from 'ethereum-cryptography/keccak.js';

/**
 * Faster primitives than @ethereumjs's JavaScript defaults, handed to it through Common's
 * `customCrypto` hooks: libsecp256k1 through the `secp256k1` package's prebuilt N-API binary (sender
 * recovery 0.07 ms instead of 2.2 ms with noble), and keccak-256 in WebAssembly (hash-wasm) once the
 * node hashes enough to pay for it. Measured per hash of 32–532 bytes: noble 3.6–13 µs, XKCP through
 * the `keccak` package's N-API binary 1.4–2.5 µs (four calls across into native code and a copy per
 * hash), WebAssembly 0.5–1.5 µs.
 *
 * Both load when first used: libsecp256k1 with the first signature the node signs or checks (its
 * binary and the tables it builds as it loads are ~3.7 MiB of resident memory that a node which only
 * reads never needs; the dev accounts' keys are derived through node:crypto, see hd-keys.ts).
 * A primitive that does not load leaves the JavaScript in @ethereumjs's place ({@link nativeCryptoStatus}
 * says why). `EVM_NODE_NATIVE_CRYPTO=0` turns them off.
 */
interface Secp256k1Binding {
  ecdsaRecover(signature: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
  ecdsaSign(msg32: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
}

const require = createRequire(import.meta.url);
const problems: string[] = [];

function load<T>(name: string, loader: () => T): T | undefined {
  if (process.env.EVM_NODE_NATIVE_CRYPTO === '0') return undefined;
  try {
    return loader();
  } catch (error) {
    problems.push(`${name}: ${(error as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

let secp: Secp256k1Binding | null | undefined;

/** libsecp256k1's binding, loaded at the first call; undefined when it does not load. */
function secpBinding(): Secp256k1Binding | undefined {
  secp ??= load('secp256k1', () => require('secp256k1/bindings') as Secp256k1Binding) ?? null;
  return secp ?? undefined;
}

/**
 * Hashes in JavaScript before the WebAssembly keccak is asked for: start-up and a node that only answers
 * reads hash a few hundred times, while compiling WebAssembly pages in V8's WebAssembly compiler and
 * runtime (~3.5 MiB of Node's binary resident for good, measured at the idle node) and hash-wasm's module.
 * Mining, admitting or importing a handful of transactions passes this many within a second.
 */
export const KECCAK_HASHES_BEFORE_WASM = 2_000;

let hashed = 0;
let wasmKeccak: ((message: Uint8Array) => Uint8Array) | undefined;
let wasmLoading: Promise<void> | undefined;
let wasmProblem: string | undefined;

/** Compiles the WebAssembly keccak in the background; hashes keep going to noble until it is ready. */
function loadWasmKeccak(): Promise<void> {
  wasmLoading ??= (async () => {
    try {
      // The keccak build alone: hash-wasm's index module carries every algorithm's WebAssembly as text.
      const { createKeccak } = (await import('hash-wasm/dist/keccak.umd.min.js')).default;
      // One hasher, reset per call: hashing is synchronous, so calls never interleave.
      const hasher = await createKeccak(256);
      wasmKeccak = (message) => {
        hasher.init();
        hasher.update(message);
        return hasher.digest('binary');
      };
    } catch (error) {
      wasmProblem = (error as Error).message.split('\n')[0];
    }
  })();
  return wasmLoading;
}

const keccak: ((message: Uint8Array) => Uint8Array) | undefined =
  process.env.EVM_NODE_NATIVE_CRYPTO === '0'
    ? undefined
    : (message) => {
        if (wasmKeccak !== undefined) return wasmKeccak(message);
        if (++hashed === KECCAK_HASHES_BEFORE_WASM) void loadWasmKeccak();
        return keccakInJs(message);
      };

/** Resolves once keccak runs in WebAssembly (or its loading failed, which {@link nativeCryptoStatus} then says): for specs and benchmarks. */
export function keccakInWasm(): Promise<boolean> {
  return loadWasmKeccak().then(() => wasmKeccak !== undefined);
}

function nativeEcrecover(binding: Secp256k1Binding): NonNullable<CustomCrypto['ecrecover']> {
  return (msgHash, v, r, s, chainId) => {
    const recovery = calculateSigRecovery(v, chainId);
    if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value');
    const signature = new Uint8Array(64);
    signature.set(setLengthLeft(r, 32), 0);
    signature.set(setLengthLeft(s, 32), 32);
    // 65 bytes, 0x04-prefixed; callers want the 64-byte x ‖ y.
    return binding.ecdsaRecover(signature, Number(recovery), msgHash, false).slice(1);
  };
}

/**
 * noble's `sign(…, { format: 'recovered' })` output: recovery byte, then r ‖ s (RFC 6979, low s, as noble).
 * @ethereumjs declares the hook with noble's overloaded signature, which no plain function matches:
 * the one adapter for that declaration.
 */
function nativeEcsign(binding: Secp256k1Binding): NonNullable<CustomCrypto['ecsign']> {
  return ((msgHash: Uint8Array, privateKey: Uint8Array) => {
    const { signature, recid } = binding.ecdsaSign(msgHash, privateKey);
    const out = new Uint8Array(65);
    out[0] = recid;
    out.set(signature, 1);
    return out;
  }) as unknown as NonNullable<CustomCrypto['ecsign']>;
}

/** Each hook, at its first call, settles on libsecp256k1 or, when that does not load, on @ethereumjs's JavaScript. */
function secpHooks(): Pick<CustomCrypto, 'ecrecover' | 'ecsign'> {
  let recover: NonNullable<CustomCrypto['ecrecover']> = (...args) => {
    const binding = secpBinding();
    recover = binding === undefined ? ecrecover : nativeEcrecover(binding);
    return recover(...args);
  };
  let sign = ((...args: Parameters<typeof secp256k1.sign>) => {
    const binding = secpBinding();
    sign = binding === undefined ? secp256k1.sign : nativeEcsign(binding);
    return sign(...args);
  }) as NonNullable<CustomCrypto['ecsign']>;
  return {
    ecrecover: (msgHash, v, r, s, chainId) => recover(msgHash, v, r, s, chainId),
    ecsign: ((...args: Parameters<typeof secp256k1.sign>) => sign(...args)) as NonNullable<CustomCrypto['ecsign']>,
  };
}

/** The hooks for a Common's `customCrypto`. */
export const nativeCrypto: CustomCrypto =
  process.env.EVM_NODE_NATIVE_CRYPTO === '0' ? {} : { ...(keccak !== undefined ? { keccak256: keccak } : {}), ...secpHooks() };

/** For the log: which native primitives are in use, and why any is not. */
export function nativeCryptoStatus(): string {
  if (process.env.EVM_NODE_NATIVE_CRYPTO === '0') return 'native crypto off (EVM_NODE_NATIVE_CRYPTO=0)';
  const keccakStatus = wasmKeccak !== undefined ? 'keccak' : wasmProblem === undefined ? 'keccak (WebAssembly once hashing is busy)' : undefined;
  const secpStatus = secp === undefined ? 'secp256k1 (at the first signature)' : secp === null ? undefined : 'secp256k1';
  const on = [keccakStatus, secpStatus].filter(Boolean);
  const unavailable = wasmProblem === undefined ? problems : [...problems, `keccak: ${wasmProblem}`];
  return `native crypto: ${on.length > 0 ? on.join(', ') : 'none'}${unavailable.length > 0 ? ` (unavailable: ${unavailable.join('; ')})` : ''}`;
}
