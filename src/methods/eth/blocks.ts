import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, Address, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { Transaction } from '../../../generated/types.js';
import { CACHE_LIMITS } from '../../caches.js';
import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import type { Chain } from '../../chain/chain.js';
import { toRpcBlock } from '../../format/block.js';
import { toQuantity } from '../../format/quantity.js';
import { toRpcTransaction } from '../../format/transaction.js';
import { sharedResult } from '../../rpc/shared-results.js';
import type { TxPool } from '../../txpool/pool.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'pendingBlock' | 'pool'>;

/**
 * A block's transaction's sender: its stored record's, else the pool's (a pending block's
 * transactions are pooled ones, whose senders the pool knows — impersonated ones included, whose
 * placeholder signatures give none), else recovered from its signature.
 */
export function senderOf(tx: TypedTransaction, stored: Uint8Array | undefined, pool: Pick<TxPool, 'get'>): Address {
  if (stored !== undefined) return new Address(stored);
  return pool.get(bytesToHex(tx.hash()))?.sender ?? tx.getSenderAddress();
}

/** Block formatting needs each transaction's sender, which the transactions' records carry. */
export async function blockTransactions(chain: Chain, block: Block, pool: Pick<TxPool, 'get'>): Promise<Transaction[]> {
  if (block.transactions.length === 0) return [];
  const records = await chain.blocks.records(block);
  return block.transactions.map((tx, index) => toRpcTransaction(tx, block, index, senderOf(tx, records?.[index]?.receipt.sender, pool)));
}

async function formatBlock(chain: Chain, block: Block | undefined, full: boolean, pool: Pick<TxPool, 'get'>) {
  if (block === undefined) return null;
  const transactions = full ? await blockTransactions(chain, block, pool) : block.transactions.map((tx) => bytesToHex(tx.hash()));
  return toRpcBlock(block, await chain.totalDifficulty(block), transactions);
}

export function blockMethods({ chain, pendingBlock, pool }: Deps): Pick<
  Handlers,
  | 'eth_blockNumber'
  | 'eth_getBlockByHash'
  | 'eth_getBlockByNumber'
  | 'eth_getBlockTransactionCountByHash'
  | 'eth_getBlockTransactionCountByNumber'
> {
  // A block's JSON never changes (its hash covers its transactions; senders and total difficulty
  // are fixed), so the newest few are formatted and serialised once: the head is asked for over and over.
  // Shared objects: never mutate one.
  const formatted = new Map<string, Awaited<ReturnType<typeof formatBlock>>>();
  const format = async (block: Block | undefined, full: boolean) => {
    if (block === undefined) return null;
    const key = `${bytesToHex(block.hash())}:${full}`;
    let rpc = formatted.get(key);
    if (rpc === undefined) {
      rpc = await formatBlock(chain, block, full, pool);
      if (rpc !== null) sharedResult(rpc);
      if (formatted.size >= CACHE_LIMITS.formattedBlocks) formatted.delete(formatted.keys().next().value as string);
      formatted.set(key, rpc);
    }
    return rpc;
  };
  const byNumber = (ref: string) => resolveBlock(chain, ref as BlockRef, pendingBlock);
  const byHash = (hash: string) => chain.blockByHash(hexToBytes(hash as PrefixedHexString));
  const count = (block: Block | undefined) => (block === undefined ? null : toQuantity(block.transactions.length));
  return {
    eth_blockNumber: async () => toQuantity(chain.head().header.number),
    eth_getBlockByHash: async ([hash, full]) => format(await byHash(hash), full),
    eth_getBlockByNumber: async ([ref, full]) => format(await byNumber(ref), full),
    eth_getBlockTransactionCountByHash: async ([hash]) => count(await byHash(hash)),
    eth_getBlockTransactionCountByNumber: async ([ref]) => count(await byNumber(ref)),
  };
}
