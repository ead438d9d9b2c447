// Damage inside a stopped node's LevelDB tables, as a failing disk or a bad copy leaves it: bytes of
// one stored value flipped where the table file holds them. Tables are written uncompressed, so a
// value's bytes stand in the file as they were stored.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { sectionKey, withDataDir } from './data-dir-keys.js';

/**
 * Moves everything the data dir's log holds into tables, uncompressed as the node writes them:
 * LevelDB writes its log into a table as it opens the database again, and a compaction of the
 * whole key range leaves one copy of each value.
 */
export async function intoTables(dir: string): Promise<void> {
  const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view', compression: false });
  try {
    await db.compactRange(new Uint8Array([0]), new Uint8Array(64).fill(0xff));
  } finally {
    await db.close();
  }
}

/** The value stored under `key` in key space `section`, as LevelDB holds it. */
export function storedValue(dir: string, section: string, key: Uint8Array): Promise<Uint8Array> {
  return withDataDir(dir, async (db) => {
    const value = await db.get(sectionKey(section, key));
    if (value === undefined) throw new Error(`nothing stored under ${section}/${Buffer.from(key).toString('hex')}`);
    return value;
  });
}

/**
 * Flips `length` bytes (each XOR 0xff) of the first table file that holds `value`, starting `at`
 * bytes into it; answers the file's name. Fails when no table holds the value.
 */
export async function flipInTable(dir: string, value: Uint8Array, at: number, length = 8): Promise<string> {
  for (const name of (await readdir(dir)).filter((file) => file.endsWith('.ldb')).sort()) {
    const path = join(dir, name);
    const bytes = await readFile(path);
    const found = bytes.indexOf(value);
    if (found === -1) continue;
    for (let i = found + at; i < found + at + length; i++) bytes[i] ^= 0xff;
    await writeFile(path, bytes);
    return name;
  }
  throw new Error(`no table file in ${dir} holds the ${value.length}-byte value`);
}
