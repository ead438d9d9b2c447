import type { Log } from '../../generated/types.js';
import type { RawLog } from '../chain/receipts.js';
import { toData, toQuantity } from './quantity.js';

/** Where a log sits: its block, its transaction, and its position among the block's logs. */
export interface LogPosition {
  blockHash: Uint8Array;
  blockNumber: bigint;
  blockTimestamp: bigint;
  txHash: Uint8Array;
  txIndex: number;
  logIndex: number;
}

export function toRpcLog([address, topics, data]: RawLog, at: LogPosition, removed = false): Log {
  return {
    address: toData(address),
    topics: topics.map(toData),
    data: toData(data),
    blockNumber: toQuantity(at.blockNumber),
    blockHash: toData(at.blockHash),
    blockTimestamp: toQuantity(at.blockTimestamp),
    transactionHash: toData(at.txHash),
    transactionIndex: toQuantity(at.txIndex),
    logIndex: toQuantity(at.logIndex),
    removed,
  };
}
