// Removing a chain from a data dir: all of it for --fresh, or what a failed start created.
// Only LevelDB's own files are ever removed, and only from a dir that holds nothing else.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { lockHolder } from '../system/owners.js';
import { creatableBelow } from './data-dir-path.js';
import { inUse, isLockRefusal } from './database.js';
import { LEVELDB_FILE } from './leveldb-files.js';
import { DataDirRefused } from './storage-fault.js';

function entriesOf(dir: string): string[] | undefined {
  try {
    if (!statSync(dir).isDirectory()) throw new DataDirRefused(`the data dir ${dir} is a file, not a directory`);
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof DataDirRefused) throw error;
    throw new DataDirRefused(`cannot read the data dir ${dir}: ${(error as Error).message}`);
  }
}

/** Refuses (DataDirRefused) when another process holds the database in `dir` open. */
async function checkNotInUse(dir: string): Promise<void> {
  if (lockHolder(join(dir, 'LOCK')) !== undefined) throw inUse(dir);
  // Where /proc/locks does not tell, LevelDB's own lock does.
  const db = new ClassicLevel(dir, { createIfMissing: false });
  try {
    await db.open();
  } catch (error) {
    const cause = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message;
    if (isLockRefusal(cause)) throw inUse(dir);
    // Damaged or half-made: nobody serves it, and it is about to go.
    return;
  }
  await db.close();
}

/**
 * --fresh: removes the database in `dir` so the node starts its chain again from the genesis. A
 * dir that holds anything but LevelDB's files may not be a data dir at all, so it is refused, as is
 * one another node is serving; a dir that does not exist is left to be created.
 */
export async function wipeDataDir(dir: string): Promise<void> {
  const names = entriesOf(dir);
  if (names === undefined || names.length === 0) return;
  const foreign = names.filter((name) => !LEVELDB_FILE.test(name));
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? `, … (${foreign.length} in all)` : '');
    throw new DataDirRefused(`--fresh will not wipe ${dir}: besides a database it holds ${shown}, so it may not be a data dir of the node's; move those away or choose another --data-dir`);
  }
  await checkNotInUse(dir);
  // Listed again: LevelDB's open in the check may have written files of its own.
  for (const name of entriesOf(dir) ?? []) if (LEVELDB_FILE.test(name)) await rm(join(dir, name), { force: true });
}

/**
 * What opening a database in `dir` is about to create, as a function that removes it again: the
 * dirs that do not exist yet, or LevelDB's files in a dir that holds no database yet. A start that
 * fails after opening it then leaves nothing behind. Nothing to undo for a dir holding a database.
 */
export function creationUndo(dir: string): () => Promise<void> {
  // A file where a parent should be: nothing can be created there, so nothing is to be removed.
  if (!creatableBelow(dir)) return async () => {};
  let missing: string | undefined;
  for (let path = resolve(dir); !existsSync(path); path = dirname(path)) missing = path;
  if (missing !== undefined) {
    const created = missing;
    return () => rm(created, { recursive: true, force: true });
  }
  const before = new Set(entriesOf(dir) ?? []);
  if ([...before].some((name) => LEVELDB_FILE.test(name))) return async () => {};
  return async () => {
    for (const name of entriesOf(dir) ?? []) if (!before.has(name) && LEVELDB_FILE.test(name)) await rm(join(dir, name), { force: true });
  };
}
