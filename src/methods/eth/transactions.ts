import type { Block } from '@ethereumjs/block';
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import type { Chain } from '../../chain/chain.js';
import { toRpcReceiptAt, toRpcReceipts } from '../../format/receipt.js';
import { toRpcPoolTransaction, toRpcTransaction } from '../../format/transaction.js';
import type { TxPool } from '../../txpool/pool.js';
import type { Handlers, Services } from '../services.js';
import { senderOf } from './blocks.js';

type Deps = Pick<Services, 'chain' | 'pool' | 'pendingBlock'>;

async function transactionAt(chain: Chain, pool: TxPool, block: Block | undefined, index: number) {
  const tx = block?.transactions[index];
  if (block === undefined || tx === undefined) return null;
  return toRpcTransaction(tx, block, index, senderOf(tx, (await chain.blocks.receipts(block.hash()))?.[index]?.sender, pool));
}

const blobGasPriceOf = (chain: Chain, block: Block) => (chain.commons.at(block.header).isActivatedEIP(4844) ? block.header.getBlobGasPrice() : undefined);

async function receiptsOf(chain: Chain, block: Block) {
  const stored = (await chain.blocks.receipts(block.hash())) ?? [];
  return toRpcReceipts(block, stored, blobGasPriceOf(chain, block));
}

/** One receipt, formatting only it (a block's receipts are all read for its log indexes). */
async function receiptAt(chain: Chain, block: Block, index: number) {
  const stored = (await chain.blocks.receipts(block.hash())) ?? [];
  return toRpcReceiptAt(block, stored, index, blobGasPriceOf(chain, block));
}

export function transactionMethods({ chain, pool, pendingBlock }: Deps): Pick<Handlers,
  | 'eth_getTransactionByHash'
  | 'eth_getTransactionByBlockHashAndIndex'
  | 'eth_getTransactionByBlockNumberAndIndex'
  | 'eth_getTransactionReceipt'
  | 'eth_getBlockReceipts'
> {
  const located = async (hash: string) => {
    const location = await chain.blocks.txLocation(hexToBytes(hash as PrefixedHexString));
    if (location === undefined) return undefined;
    const block = await chain.blockByHash(location.blockHash);
    return block === undefined ? undefined : { block, index: location.index };
  };
  return {
    eth_getTransactionByHash: async ([hash]) => {
      const mined = await located(hash);
      if (mined !== undefined) return transactionAt(chain, pool, mined.block, mined.index);
      const pooled = pool.get(hash.toLowerCase());
      return pooled === undefined ? null : toRpcPoolTransaction(pooled.tx, pooled.sender);
    },
    eth_getTransactionByBlockHashAndIndex: async ([hash, index]) =>
      transactionAt(chain, pool, await chain.blockByHash(hexToBytes(hash as PrefixedHexString)), Number(BigInt(index))),
    eth_getTransactionByBlockNumberAndIndex: async ([ref, index]) =>
      transactionAt(chain, pool, await resolveBlock(chain, ref as BlockRef, pendingBlock), Number(BigInt(index))),
    eth_getTransactionReceipt: async ([hash]) => {
      const mined = await located(hash);
      if (mined === undefined) return null;
      return receiptAt(chain, mined.block, mined.index);
    },
    eth_getBlockReceipts: async ([ref]) => {
      const block = await resolveBlock(chain, ref as BlockRef, pendingBlock);
      return block === undefined ? null : receiptsOf(chain, block);
    },
  };
}

