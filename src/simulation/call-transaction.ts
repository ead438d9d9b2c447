// A simulated call as the transaction geth makes of it (internal/ethapi TransactionArgs): defaults
// filled in (CallDefaults), the transaction type picked (ToTransaction, dynamic-fee by default),
// unsigned — v, r and s zero on the wire — and the price per gas its message pays (ToMessage).
import type { Common } from '@ethereumjs/common';
import { createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes, type Address, type PrefixedHexString } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import type { TransactionCall } from '../../generated/types.js';
import { SimulationError } from './errors.js';

export interface CallTransaction {
  tx: TypedTransaction;
  /** keccak256 of the unsigned encoding: the transaction's hash in the simulated block */
  hash: string;
  from: Address;
  gasLimit: bigint;
  value: bigint;
  /** what the message pays per gas, and the caps it offers (geth's ToMessage) */
  gasPrice: bigint;
  feeCap: bigint;
  tipCap: bigint;
  blobFeeCap: bigint;
  blobHashes: string[];
}

const big = (hex: string | undefined) => (hex === undefined ? undefined : BigInt(hex));
const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * `fee` as the library lets a transaction carry it: gas limit × fee within 256 bits. A call asking
 * more (or a tip above its fee cap) is still refused, by admission, in geth's order and words: the
 * transaction only has to be buildable until then, and never runs.
 */
function buildable(fee: bigint | undefined, gasLimit: bigint): bigint | undefined {
  if (fee === undefined) return undefined;
  const most = MAX_UINT256 / (gasLimit > 0n ? gasLimit : 1n);
  return fee < most ? fee : most;
}

/**
 * The transaction `call` stands for in a block with `baseFee` (undefined before London), from
 * `from`, with `nonce` and `gasLimit` already settled.
 */
export function callTransaction(call: TransactionCall, from: Address, nonce: bigint, gasLimit: bigint, baseFee: bigint | undefined, common: Common): CallTransaction {
  if (call.gasPrice !== undefined && (call.maxFeePerGas !== undefined || call.maxPriorityFeePerGas !== undefined)) {
    throw new SimulationError('refused', 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  }
  const chainId = common.chainId();
  if (call.chainId !== undefined && BigInt(call.chainId) !== chainId) {
    throw new SimulationError('refused', `chainId does not match node's (have=${BigInt(call.chainId)}, want=${chainId})`);
  }
  const value = big(call.value) ?? 0n;
  // Before London every call is priced by gasPrice (default 0); after it by the 1559 caps (default 0), unless it names a gasPrice.
  const gasPrice = call.gasPrice !== undefined ? BigInt(call.gasPrice) : baseFee === undefined ? 0n : undefined;
  const maxFee = gasPrice === undefined ? (big(call.maxFeePerGas) ?? 0n) : undefined;
  const maxTip = gasPrice === undefined ? (big(call.maxPriorityFeePerGas) ?? 0n) : undefined;
  const blobHashes = call.blobVersionedHashes ?? [];
  const blobFeeCap = big(call.maxFeePerBlobGas) ?? 0n;
  const type = gasPrice !== undefined ? 0 : call.authorizationList !== undefined ? 4 : call.blobVersionedHashes !== undefined ? 3 : 2;
  const data = hexToBytes((call.input ?? call.data ?? '0x') as PrefixedHexString);
  const txFee = buildable(maxFee, gasLimit);
  const txTip = maxTip === undefined || txFee === undefined ? maxTip : maxTip < txFee ? maxTip : txFee;
  const txData = {
    type,
    nonce,
    gasLimit,
    to: call.to ?? undefined,
    value,
    data,
    gasPrice: buildable(gasPrice, gasLimit),
    maxFeePerGas: txFee,
    maxPriorityFeePerGas: txTip,
    chainId: type === 0 ? undefined : chainId,
    accessList: type === 0 ? undefined : (call.accessList ?? []).map((entry) => ({ address: entry.address as PrefixedHexString, storageKeys: entry.storageKeys as PrefixedHexString[] })),
    authorizationList: type === 4 ? call.authorizationList : undefined,
    blobVersionedHashes: type === 3 ? blobHashes : undefined,
    maxFeePerBlobGas: type === 3 ? blobFeeCap : undefined,
  } as TypedTxData;
  let tx: TypedTransaction;
  try {
    tx = createTx(txData, { common, freeze: false });
  } catch (error) {
    // Fields no transaction can hold together (the fees are made buildable above): the call's own mistake.
    throw new SimulationError('invalid-params', (error as Error).message.replace(/ \(tx type=.*$/s, ''));
  }
  // A simulated transaction has no signature; the VM asks it for its sender, so tell it.
  tx.getSenderAddress = () => from;
  // geth's ToMessage: a call that names no fee pays nothing; otherwise tip plus base fee, at most the cap.
  let price: bigint;
  let feeCap: bigint;
  let tipCap: bigint;
  if (gasPrice !== undefined) {
    price = feeCap = tipCap = gasPrice;
  } else {
    feeCap = maxFee!;
    tipCap = maxTip!;
    price = feeCap === 0n && tipCap === 0n ? 0n : tipCap + baseFee! < feeCap ? tipCap + baseFee! : feeCap;
  }
  return {
    tx,
    hash: bytesToHex(keccak256(tx.serialize())),
    from,
    gasLimit,
    value,
    gasPrice: price,
    feeCap,
    tipCap,
    blobFeeCap,
    blobHashes,
  };
}
