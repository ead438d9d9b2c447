import { createBlockFromBytesArray, type Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, bytesToHex } from '@ethereumjs/util';
import type { Transaction } from '../../generated/types.js';
import type { Chain } from '../chain/chain.js';
import { toRpcBlock } from '../format/block.js';
import { toRpcTransaction } from '../format/transaction.js';
import type { TxPool } from '../txpool/pool.js';
import type { MethodServices } from './services.js';

type Pool = Pick<TxPool, 'get'>;

/**
 * A block's transaction's sender: its stored record's, else the pool's (a pending block's
 * transactions are pooled ones, whose senders the pool knows — impersonated ones included, whose
 * placeholder signatures give none), else recovered from its signature.
 */
export function senderOf(tx: TypedTransaction, stored: Uint8Array | undefined, pool: Pool): Address {
  if (stored !== undefined) return new Address(stored);
  return pool.get(bytesToHex(tx.hash()))?.sender ?? tx.getSenderAddress();
}

/** Block formatting needs each transaction's sender, which the transactions' records carry. */
async function blockTransactions(chain: Chain, block: Block, pool: Pool): Promise<Transaction[]> {
  if (block.transactions.length === 0) return [];
  const records = await chain.blocks.records(block);
  return block.transactions.map((tx, index) => toRpcTransaction(tx, block, index, senderOf(tx, records?.[index]?.receipt.sender, pool)));
}

/**
 * eth_getBlockByHash's and eth_getBlockByNumber's answer. A block's JSON never changes (its hash
 * covers its transactions; senders and total difficulty are fixed), so it is kept under the hash.
 */
export async function blockAnswer(
  { chain, pool, answers }: Pick<MethodServices, 'chain' | 'pool' | 'answers'>,
  method: 'eth_getBlockByHash' | 'eth_getBlockByNumber',
  block: Block | undefined,
  full: boolean,
) {
  if (block === undefined) return null;
  return answers.answer(method, bytesToHex(block.hash()), String(full), async () => {
    const transactions = full ? await blockTransactions(chain, block, pool) : block.transactions.map((tx) => bytesToHex(tx.hash()));
    return toRpcBlock(block, await chain.totalDifficulty(block), transactions);
  });
}

/** The transaction at `index` of `block` (eth_getTransactionByBlock*AndIndex), or null. */
export async function transactionAt({ chain, pool }: Pick<MethodServices, 'chain' | 'pool'>, block: Block | undefined, index: number) {
  const tx = block?.transactions[index];
  if (block === undefined || tx === undefined) return null;
  return toRpcTransaction(tx, block, index, senderOf(tx, (await chain.blocks.txRecord(tx.hash()))?.receipt.sender, pool));
}

/**
 * The uncle at `index` of `block` (eth_getUncleBy*AndIndex), or null: as geth answers one, its
 * header as a block with no transactions and no uncles (and that block's size); its total
 * difficulty is its parent's plus its own.
 */
export async function uncleAt({ chain }: Pick<MethodServices, 'chain'>, block: Block | undefined, index: number) {
  const uncle = block?.uncleHeaders[index];
  if (uncle === undefined) return null;
  const parent = await chain.blockByHash(uncle.parentHash);
  const parentTd = parent === undefined ? 0n : await chain.totalDifficulty(parent);
  const alone = createBlockFromBytesArray([uncle.raw(), [], []], { common: chain.commons.ofHeaderFields(uncle.raw()), setHardfork: false, skipConsensusFormatValidation: true });
  return toRpcBlock(alone, parentTd + uncle.difficulty, []);
}
