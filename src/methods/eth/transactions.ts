import type { Block } from '@ethereumjs/block';
import { Address, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import type { Chain } from '../../chain/chain.js';
import { toRpcReceipt } from '../../format/receipt.js';
import { toRpcPoolTransaction, toRpcTransaction } from '../../format/transaction.js';
import type { TxPool } from '../../txpool/pool.js';
import type { Handlers, Services } from '../services.js';
import { senderOf } from './blocks.js';

type Deps = Pick<Services, 'chain' | 'pool' | 'pendingBlock'>;

async function transactionAt(chain: Chain, pool: TxPool, block: Block | undefined, index: number) {
  const tx = block?.transactions[index];
  if (block === undefined || tx === undefined) return null;
  return toRpcTransaction(tx, block, index, senderOf(tx, (await chain.blocks.txRecord(tx.hash()))?.receipt.sender, pool));
}

async function receiptsOf(chain: Chain, block: Block) {
  const records = (await chain.blocks.records(block)) ?? [];
  return records.map((record, index) => toRpcReceipt(block.transactions[index].hash(), record));
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

