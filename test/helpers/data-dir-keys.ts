// A stopped node's data dir read key by key, as LevelDB holds it: each key space of
// src/storage/layout.ts is a sublevel, its keys prefixed with `!name!`.
import { concatBytes, utf8ToBytes } from '@ethereumjs/util';
import { ClassicLevel } from 'classic-level';

export type Level = ClassicLevel<Uint8Array, Uint8Array>;

/** The raw key of `key` in key space `section` (the whole key space's prefix without one). */
export const sectionKey = (section: string, key: Uint8Array = new Uint8Array()): Uint8Array => concatBytes(utf8ToBytes(`!${section}!`), key);

/** Every raw key of key space `section`, as an iterator range. */
export const sectionRange = (section: string) => ({ gt: sectionKey(section), lt: utf8ToBytes(`!${section}"`) });

/** Opens the data dir in `dir` (its node stopped) for `use`, closing it after. */
export async function withDataDir<T>(dir: string, use: (db: Level) => Promise<T>): Promise<T> {
  const db: Level = new ClassicLevel(dir, { keyEncoding: 'view', valueEncoding: 'view' });
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}

/** The keys of key space `section`, without its prefix. */
export async function sectionKeys(db: Level, section: string): Promise<Uint8Array[]> {
  const keys: Uint8Array[] = [];
  for await (const key of db.keys(sectionRange(section))) keys.push(key.subarray(section.length + 2));
  return keys;
}
