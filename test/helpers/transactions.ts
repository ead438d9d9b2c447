// Signed transactions for raw JSON-RPC tests, every type, signed with viem's local accounts.
import { RLP, type Input } from '@ethereumjs/rlp';
import { expect } from 'chai';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { secp256k1 } from 'ethereum-cryptography/secp256k1.js';
import type { AccessList, Hex, SignedAuthorizationList } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deriveAccounts, DEV_MNEMONIC } from '../../src/chain/dev-accounts.js';
import { DEV_KEYS } from './node.js';
import { RpcCallError } from './rpc.js';

export const CHAIN_ID = 31337;
export const GWEI = 1_000_000_000n;
export const ETHER = 10n ** 18n;
/** An address nobody holds a key for: a plain value recipient. */
export const SINK = '0x000000000000000000000000000000000000dead';

const devAccounts = deriveAccounts(DEV_MNEMONIC, 20);
/** The private key of funded dev account `i` (0–19), so each test can use a sender of its own. */
export const devKey = (i: number): Hex => `0x${Buffer.from(devAccounts[i].privateKey).toString('hex')}`;
/** The lowercase address of dev account `i`. */
export const devAddress = (i: number): Hex => devAccounts[i].address as Hex;

export type TxKind = 'legacy' | 'eip155' | 'eip2930' | 'eip1559' | 'eip7702';

export interface TxOptions {
  key?: Hex;
  kind?: TxKind;
  nonce: number;
  /** null creates a contract; default SINK */
  to?: Hex | null;
  value?: bigint;
  gas?: bigint;
  /** legacy, eip155, eip2930 */
  gasPrice?: bigint;
  /** eip1559, eip7702 */
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  data?: Hex;
  chainId?: number;
  accessList?: AccessList;
  authorizationList?: SignedAuthorizationList;
}

/** A signed transaction's raw bytes; defaults: EIP-1559, 21,000 gas, 10 gwei fee cap, 1 gwei tip, 1 wei to SINK. */
export async function signTx(options: TxOptions): Promise<Hex> {
  const account = privateKeyToAccount(options.key ?? DEV_KEYS[0]);
  const kind = options.kind ?? 'eip1559';
  const common = {
    nonce: options.nonce,
    to: options.to === null ? undefined : (options.to ?? SINK),
    value: options.value ?? 1n,
    gas: options.gas ?? 21_000n,
    data: options.data,
  };
  const chainId = options.chainId ?? CHAIN_ID;
  const gasPrice = options.gasPrice ?? 10n * GWEI;
  const maxFeePerGas = options.maxFeePerGas ?? 10n * GWEI;
  const maxPriorityFeePerGas = options.maxPriorityFeePerGas ?? GWEI;
  switch (kind) {
    case 'legacy':
      // No chain id: v is 27 or 28, the pre-EIP-155 form.
      return account.signTransaction({ ...common, type: 'legacy', gasPrice });
    case 'eip155':
      return account.signTransaction({ ...common, type: 'legacy', gasPrice, chainId });
    case 'eip2930':
      return account.signTransaction({ ...common, type: 'eip2930', gasPrice, chainId, accessList: options.accessList ?? [] });
    case 'eip1559':
      return account.signTransaction({ ...common, type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas, chainId, accessList: options.accessList });
    case 'eip7702':
      return account.signTransaction({
        ...common,
        type: 'eip7702',
        maxFeePerGas,
        maxPriorityFeePerGas,
        chainId,
        authorizationList: options.authorizationList ?? [],
      });
  }
}

const toBytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
const toHex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}` as Hex;

/** keccak256 of raw transaction bytes: the transaction hash. */
export const txHash = (raw: Hex): Hex => toHex(keccak256(toBytes(raw)));

/**
 * Signs a typed transaction (EIP-2718 `type` ‖ rlp([...fields, yParity, r, s])) from its raw RLP fields,
 * without any of the checks the libraries make: for transactions they refuse to build (tip above
 * fee cap, an empty authorization list, a foreign chain id).
 */
export function signTypedFields(type: number, fields: Input[], key: Hex = DEV_KEYS[0]): Hex {
  const payload = (list: Input[]) => Uint8Array.from([type, ...RLP.encode(list)]);
  const signature = secp256k1.sign(keccak256(payload(fields)), toBytes(key));
  return toHex(payload([...fields, BigInt(signature.recovery), signature.r, signature.s]));
}

/** The RLP fields of a raw transaction (typed: without its type byte), to tamper with and re-encode. */
export function decodeFields(raw: Hex): { type: number | undefined; fields: Uint8Array[] } {
  const bytes = toBytes(raw);
  const typed = bytes[0] <= 0x7f;
  return { type: typed ? bytes[0] : undefined, fields: RLP.decode(typed ? bytes.subarray(1) : bytes) as Uint8Array[] };
}

/** Re-encodes fields decoded by {@link decodeFields} (no re-signing). */
export function encodeFields(type: number | undefined, fields: Input[]): Hex {
  const body = RLP.encode(fields);
  return toHex(type === undefined ? body : Uint8Array.from([type, ...body]));
}

/** Awaits `promise`, which must fail with a JSON-RPC error; answers it. */
export async function rpcError(promise: Promise<unknown>): Promise<RpcCallError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RpcCallError) return error;
    throw error;
  }
  expect.fail('expected a JSON-RPC error, got a result');
}

/** Awaits `promise`, which must fail with `code` and a message equal to (string) or matching (RegExp) `message`. */
export async function expectRpcError(promise: Promise<unknown>, code: number, message: string | RegExp): Promise<RpcCallError> {
  const error = await rpcError(promise);
  expect(error.code, `code of "${error.message}"`).to.equal(code);
  if (typeof message === 'string') expect(error.message).to.equal(message);
  else expect(error.message).to.match(message);
  return error;
}
