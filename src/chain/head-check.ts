import type { Block } from '@ethereumjs/block';
import { bytesToHex, equalsBytes, KECCAK256_RLP, utf8ToBytes } from '@ethereumjs/util';
import type { Database } from '../storage/database.js';
import { numberKey } from './block-store.js';
import { decodeReceipts } from './receipts.js';

/**
 * What is wrong with the stored chain at `head`, in words, or undefined: the head record names
 * it, its block, its canonical index entry and its receipts (one per transaction) are stored, and
 * its state root node is in the trie. Read from the database itself, past every cache, so that it
 * also tells whether a re-opened database still holds what the node acknowledged.
 */
export async function headProblem(db: Database, head: Block): Promise<string | undefined> {
  const hash = head.hash();
  const name = `block ${head.header.number} (${bytesToHex(hash)})`;
  try {
    const recorded = await db.meta.get(utf8ToBytes('head'));
    if (recorded === undefined) return `the head record is missing (the chain's head is ${name})`;
    if (!equalsBytes(recorded, hash)) return `the head record names ${bytesToHex(recorded)}, not ${name}`;
    const stored = await db.blocks.get(hash);
    if (stored === undefined || !equalsBytes(stored, head.serialize())) return `the head, ${name}, is ${stored === undefined ? 'missing' : 'not the block stored under its hash'}`;
    const canonical = await db.canonical.get(numberKey(head.header.number));
    if (canonical === undefined || !equalsBytes(canonical, hash)) return `the canonical index at ${head.header.number} does not name the head, ${name}`;
    const receipts = await db.receipts.get(hash);
    if (receipts === undefined) return `the receipts of the head, ${name}, are missing`;
    let count: number;
    try {
      count = decodeReceipts(receipts).length;
    } catch (error) {
      return `the receipts of the head, ${name}, do not decode: ${(error as Error).message}`;
    }
    if (count !== head.transactions.length) return `the head, ${name}, has ${head.transactions.length} transactions but ${count} receipts`;
    const root = head.header.stateRoot;
    if (!equalsBytes(root, KECCAK256_RLP) && (await db.trie.get(root)) === undefined) {
      return `the state of the head, ${name}, is missing (no trie node for its state root ${bytesToHex(root)})`;
    }
  } catch (error) {
    return `reading the head, ${name}, failed: ${(error as Error).message}`;
  }
  return undefined;
}
