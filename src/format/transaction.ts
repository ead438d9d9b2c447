import type { Block } from '@ethereumjs/block';
import { Capability, isAccessList2930Tx, isBlob4844Tx, isEOACode7702Tx, isFeeMarket1559Tx, isLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToBigInt, bytesToHex, type Address } from '@ethereumjs/util';
import type { PoolTransaction, Transaction } from '../../generated/types.js';
import { effectiveGasPrice, feeCap } from '../fees/fees.js';
import { toData, toQuantity } from './quantity.js';

const ZERO_ADDRESS = `0x${'00'.repeat(20)}`;


type TxFields = Omit<Transaction, 'blockHash' | 'blockNumber' | 'transactionIndex'>;

/** The members every transaction object has, wherever it is. */
function txFields(tx: TypedTransaction, sender: Address, gasPrice: bigint): TxFields {
  const fields: Record<string, unknown> = {
    from: sender.toString(),
    gas: toQuantity(tx.gasLimit),
    gasPrice: toQuantity(gasPrice),
  };
  if (tx.supports(Capability.EIP1559FeeMarket)) {
    const fee = tx as { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    fields.maxFeePerGas = toQuantity(fee.maxFeePerGas);
    fields.maxPriorityFeePerGas = toQuantity(fee.maxPriorityFeePerGas);
  }
  if (isBlob4844Tx(tx)) fields.maxFeePerBlobGas = toQuantity(tx.maxFeePerBlobGas);
  Object.assign(fields, {
    hash: bytesToHex(tx.hash()),
    input: toData(tx.data),
    nonce: toQuantity(tx.nonce),
    to: tx.to === undefined ? null : tx.to.toString(),
    value: toQuantity(tx.value),
    type: toQuantity(tx.type),
  });
  if (isAccessList2930Tx(tx) || isFeeMarket1559Tx(tx) || isBlob4844Tx(tx) || isEOACode7702Tx(tx)) {
    fields.accessList = tx.accessList.map(([address, keys]) => ({ address: bytesToHex(address), storageKeys: keys.map(bytesToHex) }));
    fields.chainId = toQuantity(tx.chainId);
  } else if (isLegacyTx(tx) && tx.supports(Capability.EIP155ReplayProtection)) {
    fields.chainId = toQuantity(tx.common.chainId());
  }
  if (isBlob4844Tx(tx)) fields.blobVersionedHashes = tx.blobVersionedHashes.map((h) => h);
  if (isEOACode7702Tx(tx)) {
    fields.authorizationList = tx.authorizationList.map(([chainId, address, nonce, yParity, r, s]) => ({
      chainId: toQuantity(bytesToBigInt(chainId)),
      address: bytesToHex(address),
      nonce: toQuantity(bytesToBigInt(nonce)),
      yParity: toQuantity(bytesToBigInt(yParity)),
      r: toQuantity(bytesToBigInt(r)),
      s: toQuantity(bytesToBigInt(s)),
    }));
  }
  fields.v = toQuantity(tx.v ?? 0n);
  fields.r = toQuantity(tx.r ?? 0n);
  fields.s = toQuantity(tx.s ?? 0n);
  if (!isLegacyTx(tx)) fields.yParity = toQuantity(tx.v ?? 0n);
  return fields as unknown as TxFields;
}

/** A transaction in a block (docs/SPEC.md §2.5). */
export function toRpcTransaction(tx: TypedTransaction, block: Block, index: number, sender: Address): Transaction {
  const { hash, ...rest } = txFields(tx, sender, effectiveGasPrice(tx, block.header.baseFeePerGas));
  return {
    blockHash: bytesToHex(block.hash()),
    blockNumber: toQuantity(block.header.number),
    blockTimestamp: toQuantity(block.header.timestamp),
    hash,
    ...rest,
    transactionIndex: toQuantity(index),
  } as Transaction;
}

/**
 * A transaction waiting in the pool (docs/SPEC.md §2.6): no block yet, and the incentive address — the
 * zero address, since no transaction type we accept designates one.
 */
export function toRpcPoolTransaction(tx: TypedTransaction, sender: Address): PoolTransaction {
  const fee = feeCap(tx);
  return {
    blockHash: null,
    blockNumber: null,
    transactionIndex: null,
    ...txFields(tx, sender, fee),
    incentiveAddress: ZERO_ADDRESS,
  } as PoolTransaction;
}
