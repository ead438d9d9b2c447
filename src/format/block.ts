import type { Block as EthBlock } from '@ethereumjs/block';
import type { Block, Transaction } from '../../generated/types.js';
import { toData, toQuantity } from './quantity.js';
import { blockSize } from '../chain/block-size.js';

const EMPTY_UNCLES_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';

/** A fork-dependent member: absent (undefined, which JSON leaves out) before its fork. */
const optional = <T, R>(value: T | undefined, format: (value: T) => R): R | undefined => (value === undefined ? undefined : format(value));

/**
 * A block (docs/SPEC.md §2.4) with geth's fork-dependent members, in geth's (alphabetical) member
 * order; `transactions` holds hashes, or the full objects the caller formatted (they need senders
 * the block itself does not carry).
 */
export function toRpcBlock(block: EthBlock, totalDifficulty: bigint, transactions: string[] | Transaction[]): Block {
  const h = block.header;
  return {
    baseFeePerGas: optional(h.baseFeePerGas, toQuantity),
    blobGasUsed: optional(h.blobGasUsed, toQuantity),
    difficulty: toQuantity(h.difficulty),
    excessBlobGas: optional(h.excessBlobGas, toQuantity),
    extraData: toData(h.extraData),
    gasLimit: toQuantity(h.gasLimit),
    gasUsed: toQuantity(h.gasUsed),
    hash: toData(block.hash()),
    logsBloom: toData(h.logsBloom),
    miner: h.coinbase.toString(),
    mixHash: toData(h.mixHash),
    nonce: toData(h.nonce),
    number: toQuantity(h.number),
    parentBeaconBlockRoot: optional(h.parentBeaconBlockRoot, toData),
    parentHash: toData(h.parentHash),
    receiptsRoot: toData(h.receiptTrie),
    requestsHash: optional(h.requestsHash, toData),
    sha3Uncles: h.uncleHash.length > 0 ? toData(h.uncleHash) : EMPTY_UNCLES_HASH,
    size: toQuantity(blockSize(block)),
    stateRoot: toData(h.stateRoot),
    timestamp: toQuantity(h.timestamp),
    totalDifficulty: toQuantity(totalDifficulty),
    transactions,
    transactionsRoot: toData(h.transactionsTrie),
    uncles: block.uncleHeaders.map((uncle) => toData(uncle.hash())),
    withdrawals: block.withdrawals?.map((w) => ({
      index: toQuantity(w.index),
      validatorIndex: toQuantity(w.validatorIndex),
      address: w.address.toString(),
      amount: toQuantity(w.amount),
    })),
    withdrawalsRoot: optional(h.withdrawalsRoot, toData),
  };
}
