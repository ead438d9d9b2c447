import type { Block as EthBlock } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import type { Block, Transaction } from '../../generated/types.js';
import { toData, toQuantity } from './quantity.js';

const EMPTY_UNCLES_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';

/**
 * A block (docs/SPEC.md §2.4) with geth's fork-dependent members; `transactions` holds hashes, or the
 * full objects the caller formatted (they need senders the block itself does not carry).
 */
export function toRpcBlock(block: EthBlock, totalDifficulty: bigint, transactions: string[] | Transaction[]): Block {
  const h = block.header;
  const rpc: Record<string, unknown> = {};
  if (h.baseFeePerGas !== undefined) rpc.baseFeePerGas = toQuantity(h.baseFeePerGas);
  if (h.blobGasUsed !== undefined) rpc.blobGasUsed = toQuantity(h.blobGasUsed);
  rpc.difficulty = toQuantity(h.difficulty);
  if (h.excessBlobGas !== undefined) rpc.excessBlobGas = toQuantity(h.excessBlobGas);
  Object.assign(rpc, {
    extraData: toData(h.extraData),
    gasLimit: toQuantity(h.gasLimit),
    gasUsed: toQuantity(h.gasUsed),
    hash: bytesToHex(block.hash()),
    logsBloom: toData(h.logsBloom),
    miner: h.coinbase.toString(),
    mixHash: toData(h.mixHash),
    nonce: toData(h.nonce),
    number: toQuantity(h.number),
  });
  if (h.parentBeaconBlockRoot !== undefined) rpc.parentBeaconBlockRoot = toData(h.parentBeaconBlockRoot);
  rpc.parentHash = toData(h.parentHash);
  rpc.receiptsRoot = toData(h.receiptTrie);
  if (h.requestsHash !== undefined) rpc.requestsHash = toData(h.requestsHash);
  Object.assign(rpc, {
    sha3Uncles: h.uncleHash.length > 0 ? toData(h.uncleHash) : EMPTY_UNCLES_HASH,
    size: toQuantity(block.serialize().length),
    stateRoot: toData(h.stateRoot),
    timestamp: toQuantity(h.timestamp),
    totalDifficulty: toQuantity(totalDifficulty),
    transactions,
    transactionsRoot: toData(h.transactionsTrie),
    uncles: block.uncleHeaders.map((uncle) => bytesToHex(uncle.hash())),
  });
  if (block.withdrawals !== undefined) {
    rpc.withdrawals = block.withdrawals.map((w) => ({
      index: toQuantity(w.index),
      validatorIndex: toQuantity(w.validatorIndex),
      address: w.address.toString(),
      amount: toQuantity(w.amount),
    }));
  }
  if (h.withdrawalsRoot !== undefined) rpc.withdrawalsRoot = toData(h.withdrawalsRoot);
  return rpc as unknown as Block;
}
