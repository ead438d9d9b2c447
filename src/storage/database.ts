import { ClassicLevel } from 'classic-level';
import type { AbstractLevel, AbstractSublevel, AbstractBatchOperation } from 'abstract-level';

/** Any level database holding binary keys and values (classic-level on disk, memory-level in unit tests). */
export type BinaryLevel = AbstractLevel<Uint8Array | string | Buffer, Uint8Array, Uint8Array>;
export type Section = AbstractSublevel<BinaryLevel, Uint8Array | string | Buffer, Uint8Array, Uint8Array>;
export type BatchOp = AbstractBatchOperation<BinaryLevel, Uint8Array, Uint8Array>;

/**
 * The key spaces of the node's one LevelDB. Each is a sublevel, so a block's writes across
 * all of them still go into one atomic batch on the root database.
 */
export interface Database {
  readonly root: BinaryLevel;
  /** Merkle-Patricia trie nodes and contract code, content-addressed and never deleted (history stays queryable). */
  readonly trie: Section;
  /** block hash → RLP-serialised block */
  readonly blocks: Section;
  /** 8-byte big-endian number → canonical block hash */
  readonly canonical: Section;
  /** block hash → RLP-serialised receipts with per-transaction metadata */
  readonly receipts: Section;
  /** transaction hash → (block hash, index) */
  readonly txIndex: Section;
  /** block hash → total difficulty */
  readonly totalDifficulty: Section;
  /** named singletons: head hash, genesis hash, chain config */
  readonly meta: Section;
  /** block hash → the state root after state edits (anvil_setBalance & co.) made on top of that block */
  readonly stateEdits: Section;
  /** the transaction pool's journal */
  readonly pool: Section;
  /** installed filters with their cursors */
  readonly filters: Section;
  close(): Promise<void>;
}

const binary = { keyEncoding: 'view', valueEncoding: 'view' } as const;

export function sectionsOf(root: BinaryLevel): Database {
  const section = (name: string): Section => root.sublevel<Uint8Array, Uint8Array>(name, binary) as unknown as Section;
  return {
    root,
    trie: section('t'),
    blocks: section('b'),
    canonical: section('n'),
    receipts: section('r'),
    txIndex: section('x'),
    totalDifficulty: section('d'),
    meta: section('m'),
    stateEdits: section('e'),
    pool: section('p'),
    filters: section('f'),
    close: () => root.close(),
  };
}

export async function openDatabase(dir: string): Promise<Database> {
  const root = new ClassicLevel<Uint8Array, Uint8Array>(dir, binary) as unknown as BinaryLevel;
  await root.open();
  return sectionsOf(root);
}
