import { join } from 'node:path';
import type { AbstractLevel, AbstractSublevel, AbstractBatchOperation } from 'abstract-level';
import { MemoryLevel } from 'memory-level';
import { describeProcess, lockHolder } from '../system/owners.js';
import { FailStopLevel } from './fail-stop-level.js';
import { CACHE_LIMITS } from '../caches.js';
import { DamageLog } from './damage.js';
import { createDataDir } from './data-dir-path.js';
import { SECTION_NAMES } from './layout.js';
import { inspectDataDir } from './leveldb-files.js';
import { DataDirRefused } from './storage-fault.js';

/** Any level database holding binary keys and values (classic-level on disk, memory-level for a chain kept in memory). */
export type BinaryLevel = AbstractLevel<Uint8Array | string | Buffer, Uint8Array, Uint8Array>;
export type Section = AbstractSublevel<BinaryLevel, Uint8Array | string | Buffer, Uint8Array, Uint8Array>;
export type BatchOp = AbstractBatchOperation<BinaryLevel, Uint8Array, Uint8Array>;

/**
 * The key spaces of the node's one LevelDB (their keys and records: layout.ts). Each is a
 * sublevel, so a block's writes across all of them still go into one atomic batch on the root
 * database.
 */
export interface Database {
  readonly root: BinaryLevel;
  /** Merkle-Patricia trie nodes and contract code, content-addressed and never deleted (history stays queryable). */
  readonly trie: Section;
  /** block hash → RLP-serialised block */
  readonly blocks: Section;
  /** 8-byte big-endian number → canonical block hash */
  readonly canonical: Section;
  /** transaction hash → its TxRecord: location, receipt facts, receipt */
  readonly txRecords: Section;
  /** log emitter ‖ block number → empty: which blocks hold an address's logs */
  readonly logAddresses: Section;
  /** block hash → total difficulty */
  readonly totalDifficulty: Section;
  /** named singletons: head hash, genesis hash, chain config, layout version */
  readonly meta: Section;
  /** block hash → the state root after state edits (anvil_setBalance & co.) made on top of that block */
  readonly stateEdits: Section;
  /** keccak256(key) → key, for the addresses and slots the state trie holds by their hashes */
  readonly preimages: Section;
  /** the transaction pool's journal */
  readonly pool: Section;
  /** installed filters with their cursors */
  readonly filters: Section;
  /** layout 1's receipts by block, read only by the migration to layout 2 */
  readonly legacyReceipts: Section;
  /** the records reads found damaged (blocks, transaction records, trie nodes that are not what was written) */
  readonly damage: DamageLog;
  /** Resolves once every key space is open, so that it can be read synchronously (getSync). */
  open(): Promise<void>;
  close(): Promise<void>;
  /** Closes and opens the database again (LevelDB recovers its log), its key spaces with it. */
  reopen(): Promise<void>;
}

/** The node's database on disk, with the fail-stop guard all its writes pass. */
export interface DiskDatabase extends Database {
  readonly level: FailStopLevel;
}

export interface OpenOptions {
  /** Makes the store; tests pass one that fails writes the way a full disk does. */
  createLevel?: (dir: string, options: LevelOptions) => FailStopLevel;
}

/** How LevelDB opens the data dir: whether it may create it, and its memory (bounds in caches.ts). */
export interface LevelOptions {
  createIfMissing: boolean;
  cacheSize: number;
  writeBufferSize: number;
  maxOpenFiles: number;
  compression: boolean;
}

const binary = { keyEncoding: 'view', valueEncoding: 'view' } as const;

export function sectionsOf(root: BinaryLevel): Database {
  const section = (name: string): Section => root.sublevel<Uint8Array, Uint8Array>(name, binary);
  const sections = Object.fromEntries(Object.entries(SECTION_NAMES).map(([key, name]) => [key, section(name)])) as Record<keyof typeof SECTION_NAMES, Section>;
  return {
    root,
    ...sections,
    damage: new DamageLog(),
    open: async () => {
      await root.open();
      for (const sublevel of Object.values(sections)) await sublevel.open();
    },
    close: () => root.close(),
    reopen: async () => {
      await root.close();
      await root.open({ createIfMissing: false });
      // Closing the root closed its sublevels; they do not reopen with it.
      for (const sublevel of Object.values(sections)) await sublevel.open();
    },
  };
}

/**
 * Opens the data dir's database, creating it only in a dir that holds none. A dir whose database
 * LevelDB cannot open as it was is refused (DataDirRefused), with nothing created or deleted.
 */
export async function openDatabase(dir: string, { createLevel = (at, options) => new FailStopLevel(at, { ...binary, ...options }) }: OpenOptions = {}): Promise<DiskDatabase> {
  const contents = inspectDataDir(dir);
  // Refused before LevelDB opens it: LevelDB rotates the dir's info log even when the lock then fails.
  if (contents === 'database' && lockHolder(join(dir, 'LOCK')) !== undefined) throw inUse(dir);
  if (contents === 'new') createDataDir(dir);
  const level = createLevel(dir, {
    createIfMissing: contents === 'new',
    cacheSize: CACHE_LIMITS.levelBlockCacheBytes,
    writeBufferSize: CACHE_LIMITS.levelWriteBufferBytes,
    maxOpenFiles: CACHE_LIMITS.levelOpenFiles,
    // What the node stores barely compresses (hashes, trie nodes, signatures: a 20,000-block chain
    // takes 477 MB with Snappy, 493 MB without), while every read of a compressed block that is not
    // in the block cache decompresses it into a fresh buffer. Uncompressed, LevelDB serves a block
    // straight from the mapped table: on that chain a random receipt took 48 µs of CPU against 60,
    // and compaction stops compressing what it rewrites.
    compression: false,
  });
  try {
    await level.open();
  } catch (error) {
    const cause = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message;
    if (isLockRefusal(cause)) throw inUse(dir);
    throw new DataDirRefused(`cannot open the database in ${dir}: ${cause}`);
  }
  return { ...sectionsOf(binaryLevel(level)), level };
}

/** LevelDB's words when another process holds the database's LOCK. */
export const isLockRefusal = (message: string): boolean => /^IO error: lock /.test(message);

/** The refusal of a data dir another process is serving, naming that process when /proc tells. */
export function inUse(dir: string): DataDirRefused {
  const lock = join(dir, 'LOCK');
  const pid = lockHolder(lock);
  const holder = pid === undefined ? 'another process' : `another process (${describeProcess(pid)})`;
  return new DataDirRefused(`the data dir ${dir} is in use by ${holder}: it holds ${lock}; stop that node or choose another --data-dir`);
}

/** A database in memory, for a chain that is gone when the node stops: nothing is written to disk. */
export async function openMemoryDatabase(): Promise<Database> {
  const level = new MemoryLevel<Uint8Array, Uint8Array>(binary);
  await level.open();
  return sectionsOf(binaryLevel(level));
}

/**
 * classic-level's types name the class itself in its batch hooks and sublevels, so a subclass
 * (FailStopLevel) is not assignable to the AbstractLevel it implements: the one adapter for that.
 */
function binaryLevel(level: FailStopLevel | MemoryLevel<Uint8Array, Uint8Array>): BinaryLevel {
  return level as unknown as BinaryLevel;
}
