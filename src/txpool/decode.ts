/**
 * Raw bytes → TypedTransaction, with geth-style errors.
 *
 * Decoding is done by @ethereumjs/tx. Its constructors already reject some
 * transactions that geth decodes and then rejects with a specific message
 * (wrong chain id, EIP-7825 gas cap, tip above fee cap, high-s signatures,
 * empty 7702 authorization list). When the library refuses a payload we look at
 * the decoded RLP fields (via @ethereumjs/rlp) to name the rule geth would have
 * reported; anything else is an undecodable transaction (-32602).
 */
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import {
  createBlob4844TxFromSerializedNetworkWrapper,
  createTxFromRLP,
  paramsTx,
  TransactionType,
  type Blob4844Tx,
  type TypedTransaction,
} from '@ethereumjs/tx';
import { bytesToBigInt, equalsBytes, SECP256K1_ORDER_DIV_2 } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';

import { PoolError, PoolErrors } from './errors.js';

/** Typed envelopes the pool accepts, with the EIP that must be active. */
const SUPPORTED_TYPES = new Map<number, number>([
  [TransactionType.AccessListEIP2930, 2930],
  [TransactionType.FeeMarketEIP1559, 1559],
  [TransactionType.BlobEIP4844, 4844],
  [TransactionType.EOACodeEIP7702, 7702],
]);

/**
 * A blob transaction as submitted: its network form, `0x03 || rlp([tx, (version,) blobs,
 * commitments, proofs])`. Decoding verifies the KZG commitments against the versioned hashes
 * and the proofs (cell proofs from Osaka on, EIP-7594), so the Common's KZG must be loaded.
 * The bare form, without blobs, is refused as geth refuses it.
 */
function decodeBlobTx(raw: Uint8Array, common: Common): Blob4844Tx {
  let fields: unknown;
  try {
    fields = RLP.decode(raw.subarray(1));
  } catch (e) {
    throw PoolErrors.invalidTransaction(e instanceof Error ? e.message : String(e));
  }
  if (!Array.isArray(fields) || !Array.isArray(fields[0])) throw PoolErrors.missingSidecar();
  let tx: Blob4844Tx;
  try {
    tx = createBlob4844TxFromSerializedNetworkWrapper(raw, { common });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // The sidecar decoded but does not verify: geth's blob validation errors (-32000), not a decoding error.
    if (/KZG|versionedHash|blobVersionedHashes|commitment/i.test(message)) throw PoolErrors.invalidBlobs(message);
    throw PoolErrors.invalidTransaction(message);
  }
  if (!equalsBytes(tx.serializeNetworkWrapper(), raw)) throw PoolErrors.invalidTransaction('non-canonical encoding');
  return tx;
}

/** The EIP-2718 type byte of an encoded transaction (0 for legacy RLP lists). */
export function envelopeType(raw: Uint8Array): number {
  return raw.length > 0 && raw[0] <= 0x7f ? raw[0] : TransactionType.Legacy;
}

export interface DecodeContext {
  common: Common;
  /** For geth's check order when the library refused the payload (block gas limit precedes tip/sender checks). */
  blockGasLimit?: bigint;
}

/**
 * Decode a signed transaction. Init-code size is NOT checked here (admission
 * reports it with geth's wording); every other library validation applies.
 */
export function decodeTx(raw: Uint8Array, ctx: DecodeContext): TypedTransaction {
  if (raw.length === 0) throw PoolErrors.invalidTransaction('empty input');
  const type = envelopeType(raw);
  if (type !== TransactionType.Legacy) {
    const eip = SUPPORTED_TYPES.get(type);
    if (eip === undefined || !ctx.common.isActivatedEIP(eip)) throw PoolErrors.typeNotSupported();
  }
  if (type === TransactionType.BlobEIP4844) {
    const tx = decodeBlobTx(raw, ctx.common);
    if (!tx.isSigned()) throw PoolErrors.invalidSender();
    return tx;
  }
  let tx: TypedTransaction;
  try {
    tx = createTxFromRLP(raw, { common: ctx.common, allowUnlimitedInitCodeSize: true });
  } catch (e) {
    throw diagnose(raw, type, ctx, e);
  }
  if (!tx.isSigned()) throw PoolErrors.invalidSender();
  // Reject non-canonical encodings: the hash must be over exactly the submitted bytes.
  if (!equalsBytes(tx.serialize(), raw)) {
    throw PoolErrors.invalidTransaction('non-canonical encoding');
  }
  // Those bytes are the transaction's own encoding, so they give its hash, which the library would
  // otherwise encode the transaction again for (it keeps what is in the cache of a frozen one).
  tx.cache.hash ??= (ctx.common.customCrypto.keccak256 ?? keccak256)(raw);
  return tx;
}

/** Field positions in the RLP payload of each envelope. */
interface Layout {
  chainId?: number;
  v: number;
  tip: number;
  feeCap: number;
  gasLimit: number;
  s: number;
  authList?: number;
  length: number[];
}

const LAYOUTS = new Map<number, Layout>([
  [TransactionType.Legacy, { v: 6, tip: 1, feeCap: 1, gasLimit: 2, s: 8, length: [9] }],
  [TransactionType.AccessListEIP2930, { chainId: 0, v: 8, tip: 2, feeCap: 2, gasLimit: 3, s: 10, length: [11] }],
  [TransactionType.FeeMarketEIP1559, { chainId: 0, v: 9, tip: 2, feeCap: 3, gasLimit: 4, s: 11, length: [12] }],
  [TransactionType.EOACodeEIP7702, { chainId: 0, v: 10, tip: 2, feeCap: 3, gasLimit: 4, s: 12, authList: 9, length: [13] }],
]);

function diagnose(raw: Uint8Array, type: number, ctx: DecodeContext, cause: unknown): PoolError {
  const generic = PoolErrors.invalidTransaction(cause instanceof Error ? cause.message : String(cause));
  const layout = LAYOUTS.get(type);
  if (layout === undefined) return generic;
  let fields: unknown;
  try {
    fields = RLP.decode(type === TransactionType.Legacy ? raw : raw.subarray(1));
  } catch {
    return generic;
  }
  if (!Array.isArray(fields) || !layout.length.includes(fields.length)) return generic;
  const num = (i: number): bigint | undefined =>
    fields[i] instanceof Uint8Array ? bytesToBigInt(fields[i] as Uint8Array) : undefined;

  // A copy with the tx-library params (the chain's Common may not carry them).
  const common = ctx.common.copy();
  common.updateParams(paramsTx);
  const gas = num(layout.gasLimit);
  if (gas !== undefined && common.isActivatedEIP(7825)) {
    const cap = common.param('maxTransactionGasLimit');
    if (gas > cap) return PoolErrors.gasLimitTooHigh(cap, gas);
  }
  if (gas !== undefined && ctx.blockGasLimit !== undefined && gas > ctx.blockGasLimit) {
    return PoolErrors.blockGasLimit();
  }
  const tip = num(layout.tip);
  const cap = num(layout.feeCap);
  if (tip !== undefined && cap !== undefined && cap < tip) return PoolErrors.tipAboveFeeCap();

  const want = common.chainId();
  if (layout.chainId !== undefined) {
    const have = num(layout.chainId);
    if (have !== undefined && have !== want) return PoolErrors.invalidChainId(have, want);
  } else {
    const v = num(layout.v);
    // EIP-155: v = chainId * 2 + 35/36; 27/28 are pre-155 (accepted), anything else is malformed.
    if (v !== undefined && v >= 35n) {
      const have = (v - 35n) / 2n;
      if (have !== want) return PoolErrors.invalidChainId(have, want);
    } else if (v !== undefined && v !== 27n && v !== 28n) {
      return PoolErrors.invalidSender();
    }
  }
  const s = num(layout.s);
  if (s !== undefined && s > SECP256K1_ORDER_DIV_2) return PoolErrors.invalidSender();
  if (layout.authList !== undefined) {
    const list = fields[layout.authList];
    if (Array.isArray(list) && list.length === 0) return PoolErrors.setCodeEmpty();
  }
  return generic;
}
