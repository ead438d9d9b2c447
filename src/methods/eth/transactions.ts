import type { Block } from '@ethereumjs/block';
import { Address, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import type { Chain } from '../../chain/chain.js';
import { toRpcReceipt } from '../../format/receipt.js';
import { toRpcPoolTransaction, toRpcTransaction } from '../../format/transaction.js';
import { composedResult } from '../../rpc/shared-results.js';
import type { TxPool } from '../../txpool/pool.js';
import type { Handlers, Services } from '../services.js';
import { senderOf } from './blocks.js';

type Deps = Pick<Services, 'chain' | 'pool' | 'pendingBlock'>;

async function transactionAt(chain: Chain, pool: TxPool, block: Block | undefined, index: number) {
  const tx = block?.transactions[index];
  if (block === undefined || tx === undefined) return null;
  return toRpcTransaction(tx, block, index, senderOf(tx, (await chain.blocks.txRecord(tx.hash()))?.receipt.sender, pool));
}

/** Receipts formatted and serialised between two turns of the event loop. */
const RECEIPTS_PER_SLICE = 256;

/**
 * A block's receipts. A big block's are formatted and serialised a slice at a time, the event loop
 * free between slices: 5,000 receipts take ~100 ms of formatting, which would otherwise hold every
 * other request as long. The answer's JSON is the slices' joined.
 */
async function receiptsOf(chain: Chain, block: Block) {
  const records = (await chain.blocks.completeRecords(block)) ?? [];
  const format = (start: number) => records.slice(start, start + RECEIPTS_PER_SLICE).map((record, i) => toRpcReceipt(block.transactions[start + i].hash(), record));
  if (records.length <= RECEIPTS_PER_SLICE) return format(0);
  const receipts: ReturnType<typeof toRpcReceipt>[] = [];
  const json: Buffer[] = [];
  for (let start = 0; start < records.length; start += RECEIPTS_PER_SLICE) {
    if (start > 0) await setImmediatePromise();
    const slice = format(start);
    receipts.push(...slice);
    json.push(Buffer.from(`${start === 0 ? '[' : ','}${JSON.stringify(slice).slice(1, -1)}`));
  }
  json.push(Buffer.from(']'));
  return composedResult(receipts, Buffer.concat(json));
}

export function transactionMethods({ chain, pool, pendingBlock }: Deps): Pick<Handlers,
  | 'eth_getTransactionByHash'
  | 'eth_getTransactionByBlockHashAndIndex'
  | 'eth_getTransactionByBlockNumberAndIndex'
  | 'eth_getTransactionReceipt'
  | 'eth_getBlockReceipts'
> {
  return {
    eth_getTransactionByHash: async ([hash]) => {
      const record = await chain.blocks.txRecord(hexToBytes(hash as PrefixedHexString));
      if (record !== undefined) {
        const block = await chain.blockByHash(record.blockHash);
        const tx = block?.transactions[record.index];
        if (tx !== undefined) return toRpcTransaction(tx, block!, record.index, new Address(record.receipt.sender));
      }
      const pooled = pool.get(hash.toLowerCase());
      return pooled === undefined ? null : toRpcPoolTransaction(pooled.tx, pooled.sender);
    },
    eth_getTransactionByBlockHashAndIndex: async ([hash, index]) =>
      transactionAt(chain, pool, await chain.blockByHash(hexToBytes(hash as PrefixedHexString)), Number(BigInt(index))),
    eth_getTransactionByBlockNumberAndIndex: async ([ref, index]) =>
      transactionAt(chain, pool, await resolveBlock(chain, ref as BlockRef, pendingBlock), Number(BigInt(index))),
    eth_getTransactionReceipt: async ([hash]) => {
      const txHash = hexToBytes(hash as PrefixedHexString);
      const record = await chain.blocks.txRecord(txHash);
      return record === undefined ? null : toRpcReceipt(txHash, record);
    },
    eth_getBlockReceipts: async ([ref]) => {
      const block = await resolveBlock(chain, ref as BlockRef, pendingBlock);
      return block === undefined ? null : receiptsOf(chain, block);
    },
  };
}

