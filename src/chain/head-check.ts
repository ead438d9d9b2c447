import type { Block } from '@ethereumjs/block';
import { bytesToHex, equalsBytes, KECCAK256_RLP, utf8ToBytes } from '@ethereumjs/util';
import type { Database } from '../storage/database.js';
import { decodeTxRecord, encodeStoredBlock, numberKey } from '../storage/layout.js';

/**
 * What is wrong with the stored chain at `head`, in words, or undefined: the head record names
 * it, its block, its canonical index entry and its transactions' records (with their receipts)
 * are stored, and its state root node is in the trie (of a fork block, only the first three). Read from the database itself, past every
 * cache, so that it also tells whether a re-opened database still holds what the node acknowledged.
 */
export async function headProblem(db: Database, head: Block, forkBase?: Block): Promise<string | undefined> {
  const hash = head.hash();
  const name = `block ${head.header.number} (${bytesToHex(hash)})`;
  try {
    const recorded = await db.meta.get(utf8ToBytes('head'));
    if (recorded === undefined) return `the head record is missing (the chain's head is ${name})`;
    if (!equalsBytes(recorded, hash)) return `the head record names ${bytesToHex(recorded)}, not ${name}`;
    const stored = await db.blocks.get(hash);
    if (stored === undefined || !equalsBytes(stored, encodeStoredBlock(head.serialize()))) return `the head, ${name}, is ${stored === undefined ? 'missing' : 'not the block stored under its hash'}`;
    const canonical = await db.canonical.get(numberKey(head.header.number));
    if (canonical === undefined || !equalsBytes(canonical, hash)) return `the canonical index at ${head.header.number} does not name the head, ${name}`;
    // A fork block's transactions and state are the remote's: the chain stores neither.
    if (forkBase !== undefined && equalsBytes(hash, forkBase.hash())) return undefined;
    const records = await db.txRecords.getMany(head.transactions.map((tx) => tx.hash()));
    for (const [index, bytes] of records.entries()) {
      const problem = recordProblem(bytes, hash);
      if (problem !== undefined) return `the record of transaction ${index} of the head, ${name}, ${problem}`;
    }
    const root = head.header.stateRoot;
    if (!equalsBytes(root, KECCAK256_RLP) && (await db.trie.get(root)) === undefined) {
      return `the state of the head, ${name}, is missing (no trie node for its state root ${bytesToHex(root)})`;
    }
  } catch (error) {
    return `reading the head, ${name}, failed: ${(error as Error).message}`;
  }
  return undefined;
}

function recordProblem(bytes: Uint8Array | undefined, blockHash: Uint8Array): string | undefined {
  if (bytes === undefined) return 'is missing';
  try {
    const record = decodeTxRecord(bytes);
    return equalsBytes(record.blockHash, blockHash) ? undefined : `names another block, ${bytesToHex(record.blockHash)}`;
  } catch (error) {
    return `does not decode: ${(error as Error).message}`;
  }
}
