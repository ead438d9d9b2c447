import type { Block } from '@ethereumjs/block';
import { Capability, isAccessList2930Tx, isBlob4844Tx, isEOACode7702Tx, isFeeMarket1559Tx, isLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToBigInt, type Address } from '@ethereumjs/util';
import type { Authorization, PoolTransaction, Transaction } from '../../generated/types.js';
import { effectiveGasPrice, feeCap } from '../fees/fees.js';
import { toData, toQuantity } from './quantity.js';

const ZERO_ADDRESS = `0x${'00'.repeat(20)}`;

type TxFields = Omit<Transaction, 'blockHash' | 'blockNumber' | 'blockTimestamp' | 'transactionIndex'>;

const authorization = ([chainId, address, nonce, yParity, r, s]: Uint8Array[]): Authorization => ({
  chainId: toQuantity(bytesToBigInt(chainId)),
  address: toData(address),
  nonce: toQuantity(bytesToBigInt(nonce)),
  yParity: toQuantity(bytesToBigInt(yParity)),
  r: toQuantity(bytesToBigInt(r)),
  s: toQuantity(bytesToBigInt(s)),
});

/** The chain id a transaction names: its own for typed ones, the signer's for EIP-155 legacy ones, none before. */
function chainIdOf(tx: TypedTransaction): bigint | undefined {
  if (isAccessList2930Tx(tx) || isFeeMarket1559Tx(tx) || isBlob4844Tx(tx) || isEOACode7702Tx(tx)) return tx.chainId;
  return isLegacyTx(tx) && tx.supports(Capability.EIP155ReplayProtection) ? tx.common.chainId() : undefined;
}

/** The members every transaction object has, wherever it is; type-specific ones are undefined (left out of the JSON) elsewhere. */
function txFields(tx: TypedTransaction, sender: Address, gasPrice: bigint): TxFields {
  const dynamic = isFeeMarket1559Tx(tx) || isBlob4844Tx(tx) || isEOACode7702Tx(tx);
  const typed = !isLegacyTx(tx);
  const chainId = chainIdOf(tx);
  return {
    from: sender.toString(),
    gas: toQuantity(tx.gasLimit),
    gasPrice: toQuantity(gasPrice),
    maxFeePerGas: dynamic ? toQuantity(tx.maxFeePerGas) : undefined,
    maxPriorityFeePerGas: dynamic ? toQuantity(tx.maxPriorityFeePerGas) : undefined,
    maxFeePerBlobGas: isBlob4844Tx(tx) ? toQuantity(tx.maxFeePerBlobGas) : undefined,
    hash: toData(tx.hash()),
    input: toData(tx.data),
    nonce: toQuantity(tx.nonce),
    to: tx.to === undefined ? null : tx.to.toString(),
    value: toQuantity(tx.value),
    type: toQuantity(tx.type),
    accessList: typed ? tx.accessList.map(([address, keys]) => ({ address: toData(address), storageKeys: keys.map(toData) })) : undefined,
    chainId: chainId === undefined ? undefined : toQuantity(chainId),
    blobVersionedHashes: isBlob4844Tx(tx) ? [...tx.blobVersionedHashes] : undefined,
    authorizationList: isEOACode7702Tx(tx) ? tx.authorizationList.map(authorization) : undefined,
    v: toQuantity(tx.v ?? 0n),
    r: toQuantity(tx.r ?? 0n),
    s: toQuantity(tx.s ?? 0n),
    yParity: typed ? toQuantity(tx.v ?? 0n) : undefined,
  };
}

/** A transaction in a block (docs/SPEC.md §2.5). */
export function toRpcTransaction(tx: TypedTransaction, block: Block, index: number, sender: Address): Transaction {
  const { hash, ...fields } = txFields(tx, sender, effectiveGasPrice(tx, block.header.baseFeePerGas));
  return {
    blockHash: toData(block.hash()),
    blockNumber: toQuantity(block.header.number),
    blockTimestamp: toQuantity(block.header.timestamp),
    hash,
    ...fields,
    transactionIndex: toQuantity(index),
  };
}

/**
 * A transaction waiting in the pool (docs/SPEC.md §2.6): no block yet, and the incentive address — the
 * zero address, since no transaction type we accept designates one.
 */
export function toRpcPoolTransaction(tx: TypedTransaction, sender: Address): PoolTransaction {
  return {
    blockHash: null,
    blockNumber: null,
    transactionIndex: null,
    ...txFields(tx, sender, feeCap(tx)),
    incentiveAddress: ZERO_ADDRESS,
  };
}
