import type { Receipt } from '../../generated/types.js';
import { logsBloom } from '../chain/bloom.js';
import type { TxRecord } from '../storage/layout.js';
import { toRpcLog } from './log.js';
import { toData, toQuantity } from './quantity.js';

/** A mined transaction's receipt (docs/SPEC.md §2.7 plus geth's members) from its record; log indexes run across the block. */
export function toRpcReceipt(txHash: Uint8Array, record: TxRecord): Receipt {
  const { receipt, blockHash, blockNumber, blockTimestamp, index } = record;
  let logIndex = record.firstLogIndex;
  const logs = receipt.logs.map((log) => toRpcLog(log, { blockHash, blockNumber, blockTimestamp, txHash, txIndex: index, logIndex: logIndex++ }));
  const blobGasUsed = receipt.blobGasUsed !== undefined && receipt.blobGasUsed > 0n ? receipt.blobGasUsed : undefined;
  return {
    blockHash: toData(blockHash),
    blockNumber: toQuantity(blockNumber),
    contractAddress: receipt.contractAddress === undefined ? null : toData(receipt.contractAddress),
    cumulativeGasUsed: toQuantity(receipt.cumulativeGasUsed),
    effectiveGasPrice: toQuantity(record.effectiveGasPrice),
    from: toData(receipt.sender),
    gasUsed: toQuantity(receipt.gasUsed),
    logs,
    logsBloom: toData(logsBloom(logs)),
    status: receipt.status === undefined ? undefined : receipt.status === 1 ? '0x1' : '0x0',
    root: receipt.stateRoot === undefined ? undefined : toData(receipt.stateRoot),
    to: record.to === undefined ? null : toData(record.to),
    transactionHash: toData(txHash),
    transactionIndex: toQuantity(index),
    type: toQuantity(record.type),
    blobGasUsed: blobGasUsed === undefined ? undefined : toQuantity(blobGasUsed),
    blobGasPrice: blobGasUsed === undefined || record.blobGasPrice === undefined ? undefined : toQuantity(record.blobGasPrice),
  };
}
