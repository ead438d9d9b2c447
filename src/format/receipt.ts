import type { Block } from '@ethereumjs/block';
import { Bloom } from '@ethereumjs/vm';
import { bytesToHex, Address } from '@ethereumjs/util';
import type { Receipt } from '../../generated/types.js';
import type { StoredReceipt } from '../chain/receipts.js';
import { toRpcLog } from './log.js';
import { toQuantity } from './quantity.js';
import { effectiveGasPrice } from '../fees/fees.js';

/** Every receipt of a block (docs/SPEC.md §2.7 plus geth's members); log indexes run across the block. */
export function toRpcReceipts(block: Block, receipts: StoredReceipt[], blobGasPrice?: bigint): Receipt[] {
  let firstLogIndex = 0;
  return receipts.map((receipt, txIndex) => {
    const rpc = toRpcReceipt(block, receipt, txIndex, firstLogIndex, blobGasPrice);
    firstLogIndex += receipt.logs.length;
    return rpc;
  });
}

/**
 * The receipt of the block's transaction at `txIndex`, alone: `receipts` are the block's, for the
 * log indexes, which count the logs of the transactions before it.
 */
export function toRpcReceiptAt(block: Block, receipts: StoredReceipt[], txIndex: number, blobGasPrice?: bigint): Receipt | null {
  const receipt = receipts[txIndex];
  if (receipt === undefined) return null;
  let firstLogIndex = 0;
  for (let i = 0; i < txIndex; i++) firstLogIndex += receipts[i].logs.length;
  return toRpcReceipt(block, receipt, txIndex, firstLogIndex, blobGasPrice);
}

function toRpcReceipt(block: Block, receipt: StoredReceipt, txIndex: number, firstLogIndex: number, blobGasPrice?: bigint): Receipt {
  let logIndex = firstLogIndex;
  const tx = block.transactions[txIndex];
  const txHash = tx.hash();
  const bloom = new Bloom();
  const logs = receipt.logs.map((log) => {
    bloom.add(log[0]);
    for (const topic of log[1]) bloom.add(topic);
    return toRpcLog(log, { block, txHash, txIndex, logIndex: logIndex++ });
  });
  const blobGasUsed = receipt.blobGasUsed !== undefined && receipt.blobGasUsed > 0n ? receipt.blobGasUsed : undefined;
  return {
    blockHash: bytesToHex(block.hash()),
    blockNumber: toQuantity(block.header.number),
    contractAddress: receipt.contractAddress === undefined ? null : bytesToHex(receipt.contractAddress),
    cumulativeGasUsed: toQuantity(receipt.cumulativeGasUsed),
    effectiveGasPrice: toQuantity(effectiveGasPrice(tx, block.header.baseFeePerGas)),
    from: new Address(receipt.sender).toString(),
    gasUsed: toQuantity(receipt.gasUsed),
    logs,
    logsBloom: bytesToHex(bloom.bitvector),
    status: receipt.status === undefined ? undefined : receipt.status === 1 ? '0x1' : '0x0',
    root: receipt.stateRoot === undefined ? undefined : bytesToHex(receipt.stateRoot),
    to: tx.to === undefined ? null : tx.to.toString(),
    transactionHash: bytesToHex(txHash),
    transactionIndex: toQuantity(txIndex),
    type: toQuantity(tx.type),
    blobGasUsed: blobGasUsed === undefined ? undefined : toQuantity(blobGasUsed),
    blobGasPrice: blobGasUsed === undefined || blobGasPrice === undefined ? undefined : toQuantity(blobGasPrice),
  };
}
