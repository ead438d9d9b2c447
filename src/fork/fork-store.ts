import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { MemoryLevel } from 'memory-level';
import { CACHE_LIMITS } from '../caches.js';
import { sectionsOf, type BinaryLevel, type Database, type Section } from '../storage/database.js';
import { LAYOUT_VERSION } from '../storage/layout.js';
import { lockHolder } from '../system/owners.js';

/**
 * What the node keeps of a forked chain, for good: the remote's trie nodes and code (`trie`), its
 * blocks and transaction records at or below the fork block (the chain's own key spaces, so the
 * block store reads them as it reads the chain's), and in `fork` what was asked of the remote:
 * the accounts and slots whose proofs are in `trie`, which account owns a code hash, transactions
 * the remote does not have at or below the fork block, and eth_getLogs answers.
 */
export interface ForkStore {
  /** the fork it caches */
  readonly identity: ForkIdentity;
  readonly db: Database;
  readonly fork: Section;
  /** where it lives, for the banner: a dir, "the data dir", or undefined when it lives in memory */
  readonly where?: string;
  close(): Promise<void>;
}

/** What identifies a fork's cache: the remote chain and the fork block. */
export interface ForkIdentity {
  chainId: bigint;
  number: bigint;
  /** 0x-prefixed */
  hash: string;
}

const binary = { keyEncoding: 'view', valueEncoding: 'view' } as const;
const FORK_FILE = 'fork.json';

async function storeOn(level: BinaryLevel, identity: ForkIdentity, where: string | undefined, close: () => Promise<void>): Promise<ForkStore> {
  const db = sectionsOf(level);
  await db.open();
  const fork = level.sublevel<Uint8Array, Uint8Array>('z', binary) as unknown as Section;
  await fork.open();
  return { identity, db, fork, where, close };
}

/** The cache inside a data dir's own LevelDB (a key space per fork block), so the data dir holds all of its chain. */
export function forkStoreInDataDir(root: BinaryLevel, fork: ForkIdentity): Promise<ForkStore> {
  const level = root.sublevel<Uint8Array, Uint8Array>(`k${fork.hash.slice(2, 18)}`, binary) as unknown as BinaryLevel;
  return storeOn(level, fork, 'the data dir', async () => {});
}

/** A cache that lives as long as the process: --no-fork-cache, or when the cache dir is taken. */
export async function forkStoreInMemory(fork: ForkIdentity): Promise<ForkStore> {
  const level = new MemoryLevel<Uint8Array, Uint8Array>(binary);
  return storeOn(level as unknown as BinaryLevel, fork, undefined, () => level.close());
}

/** The per-user cache of forks: `$XDG_CACHE_HOME/evm-node/forks`, else `~/.cache/evm-node/forks`. */
export function defaultForkCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME !== undefined && process.env.XDG_CACHE_HOME !== '' ? process.env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'evm-node', 'forks');
}

const forkDirOf = (cacheDir: string, fork: ForkIdentity) => join(cacheDir, String(fork.chainId), `${fork.number}-${fork.hash.slice(2)}`);

/**
 * The fork's cache in `cacheDir`: one LevelDB per chain and fork block, so another fork block, or
 * a block the remote has since replaced (its hash differs), never reads this one's entries. Opening
 * it marks it used; caches past the size bound go, least recently used first. One that another
 * process holds open is not waited for: the fork then caches in memory, which `log` is told.
 */
export async function forkStoreInDir(cacheDir: string, fork: ForkIdentity, log: (message: string) => void, maxBytes = CACHE_LIMITS.forkCacheBytes): Promise<ForkStore> {
  const dir = forkDirOf(cacheDir, fork);
  if (lockHolder(join(dir, 'LOCK')) !== undefined) {
    log(`the fork cache ${dir} is in use by another process; this run caches in memory only`);
    return forkStoreInMemory(fork);
  }
  // A cache written in another storage layout is only a cache: it starts over rather than be misread.
  if (existsSync(dir) && layoutOf(dir) !== LAYOUT_VERSION) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const level = new ClassicLevel<Uint8Array, Uint8Array>(dir, { ...binary, compression: false });
  try {
    await level.open();
  } catch (error) {
    log(`the fork cache ${dir} cannot be opened (${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}); this run caches in memory only`);
    return forkStoreInMemory(fork);
  }
  const record = join(dir, FORK_FILE);
  // Written whole or not at all: its mtime is when the fork was last used, which eviction reads.
  writeFileSync(`${record}.new`, JSON.stringify({ chainId: String(fork.chainId), number: String(fork.number), hash: fork.hash, layout: LAYOUT_VERSION }));
  renameSync(`${record}.new`, record);
  evictBeyond(cacheDir, maxBytes, dir);
  return storeOn(level as unknown as BinaryLevel, fork, dir, () => level.close());
}

/** The forks cached in `cacheDir` at block `number` (and chain `chainId` when given), most recently used first: what --offline may serve. */
export function cachedForks(cacheDir: string, number: bigint | undefined, chainId: bigint | undefined): ForkIdentity[] {
  return forkDirs(cacheDir)
    .map(({ dir, used }) => ({ used, fork: readFork(dir) }))
    .filter((entry): entry is { used: number; fork: ForkIdentity } => entry.fork !== undefined)
    .filter(({ fork }) => (number === undefined || fork.number === number) && (chainId === undefined || fork.chainId === chainId))
    .sort((a, b) => b.used - a.used)
    .map(({ fork }) => fork);
}

/** The storage layout a fork dir's cache was written in (undefined: none recorded). */
function layoutOf(dir: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, FORK_FILE), 'utf8')) as { layout?: number }).layout;
  } catch {
    return undefined;
  }
}

function readFork(dir: string): ForkIdentity | undefined {
  if (layoutOf(dir) !== LAYOUT_VERSION) return undefined;
  try {
    const { chainId, number, hash } = JSON.parse(readFileSync(join(dir, FORK_FILE), 'utf8')) as Record<string, string>;
    return { chainId: BigInt(chainId), number: BigInt(number), hash };
  } catch {
    return undefined;
  }
}

/** Every fork dir in the cache, with when it was last used (ms). */
function forkDirs(cacheDir: string): { dir: string; used: number }[] {
  const dirs: { dir: string; used: number }[] = [];
  if (!existsSync(cacheDir)) return dirs;
  for (const chain of readdirSync(cacheDir, { withFileTypes: true })) {
    if (!chain.isDirectory()) continue;
    for (const entry of readdirSync(join(cacheDir, chain.name), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = join(cacheDir, chain.name, entry.name);
      const record = join(dir, FORK_FILE);
      dirs.push({ dir, used: existsSync(record) ? statSync(record).mtimeMs : 0 });
    }
  }
  return dirs;
}

function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) total += statSync(join(dir, entry.name)).size;
  }
  return total;
}

/** Removes the least recently used fork caches (never `keep`, nor one in use) until the rest fit in `bytes`. */
function evictBeyond(cacheDir: string, bytes: number, keep: string): void {
  const dirs = forkDirs(cacheDir)
    .map((entry) => ({ ...entry, size: sizeOf(entry.dir) }))
    .sort((a, b) => a.used - b.used);
  let total = dirs.reduce((sum, entry) => sum + entry.size, 0);
  for (const entry of dirs) {
    if (total <= bytes) break;
    if (entry.dir === keep || lockHolder(join(entry.dir, 'LOCK')) !== undefined) continue;
    rmSync(entry.dir, { recursive: true, force: true });
    total -= entry.size;
  }
}
