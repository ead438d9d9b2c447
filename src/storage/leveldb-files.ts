// A read-only look at a data dir's LevelDB files before LevelDB opens it. Opening is not
// harmless: with CURRENT missing, LevelDB starts an empty database and deletes the old tables as
// obsolete; a table truncated by a crash or a copy only fails later, on some read. So the node
// reads CURRENT, replays the MANIFEST it names (LevelDB's log format: 32 KiB blocks of
// checksummed records, each a VersionEdit) into the set of live tables, and checks each table's
// size and footer — without creating, changing or deleting any file. Synchronously: nothing else
// runs yet, and a hundred tables take a millisecond this way, several through the thread pool.
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { unreachableDataDir } from './data-dir-path.js';
import { DataDirRefused } from './storage-fault.js';

/** What a data dir holds: nothing of LevelDB's yet (it may be created there), or a database. */
export type DataDirContents = 'new' | 'database';

/** The names LevelDB gives the files of a database dir. */
export const LEVELDB_FILE = /^(CURRENT|LOCK|LOG(\.old)?|MANIFEST-\d+|\d+\.(log|ldb|sst|dbtmp))$/;
const BLOCK_SIZE = 32768;
const HEADER_SIZE = 7;
const FOOTER_SIZE = 48;
/** A table's last 8 bytes: LevelDB's magic number 0xdb4775248b80fb57, little-endian. */
const TABLE_MAGIC = Uint8Array.of(0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb);

/**
 * Refuses (DataDirRefused, one line naming the file and the cause) a dir that holds LevelDB files
 * LevelDB could not open as the database they were: CURRENT missing or damaged, its MANIFEST
 * missing or damaged, a live table missing, truncated or without its footer.
 */
export function inspectDataDir(dir: string): DataDirContents {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new DataDirRefused(`the data dir ${dir} is a file, not a directory`);
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'new';
    if (error instanceof DataDirRefused) throw error;
    // A file where a parent dir should be.
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') throw unreachableDataDir(dir, error as NodeJS.ErrnoException);
    throw new DataDirRefused(`cannot read the data dir ${dir}: ${(error as Error).message}`);
  }
  const leveldb = names.filter((name) => LEVELDB_FILE.test(name));
  if (leveldb.length === 0) return 'new';
  if (!names.includes('CURRENT')) {
    const manifests = leveldb.filter((name) => name.startsWith('MANIFEST-')).sort();
    const hint = manifests.length === 0 ? '' : ` (it would read ${manifests.at(-1)} — the newest MANIFEST here)`;
    throw new DataDirRefused(
      `the data dir ${dir} holds a database (${leveldb.slice(0, 3).join(', ')}${leveldb.length > 3 ? ', …' : ''}) but not its CURRENT file${hint}; ` +
        'opening it would start a new chain and delete its tables, so the node refuses: restore CURRENT or use another --data-dir',
    );
  }
  const manifest = currentManifest(dir);
  const tables = liveTables(readManifest(dir, manifest), join(dir, manifest));
  for (const [number, size] of tables) checkTable(dir, number, size, manifest);
  return 'database';
}

function currentManifest(dir: string): string {
  const path = join(dir, 'CURRENT');
  const text = readFileSync(path, 'latin1');
  const name = /^(MANIFEST-\d+)\n$/.exec(text)?.[1];
  if (name === undefined) throw new DataDirRefused(`${path} is damaged: it should name the live MANIFEST on one line, but reads ${JSON.stringify(text.slice(0, 40))}`);
  return name;
}

function readManifest(dir: string, name: string): Uint8Array {
  const path = join(dir, name);
  try {
    return readFileSync(path);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new DataDirRefused(`${path}, which CURRENT names, ${missing ? 'is missing' : `cannot be read: ${(error as Error).message}`}`);
  }
}

/** Fields LevelDB's recovery requires the MANIFEST to have recorded, by VersionEdit tag. */
const REQUIRED = new Map([
  [2, 'log number'],
  [3, 'next file number'],
  [4, 'last sequence number'],
]);

/** Replays the MANIFEST's VersionEdits: live table file number → its size. */
function liveTables(manifest: Uint8Array, path: string): Map<number, number> {
  const tables = new Map<number, number>();
  const seen = new Set<number>();
  for (const { record, offset } of logRecords(manifest, path)) {
    try {
      applyEdit(record, tables, seen);
    } catch (error) {
      throw new DataDirRefused(`${path} is damaged: the record at byte ${offset} is not a version edit (${(error as Error).message})`);
    }
  }
  const missing = [...REQUIRED].filter(([tag]) => !seen.has(tag)).map(([, field]) => field);
  if (missing.length > 0) throw new DataDirRefused(`${path} is damaged: its ${manifest.length} bytes record no ${missing.join(', no ')} (truncated?)`);
  return tables;
}

/**
 * The logical records of a LevelDB log file, as its reader yields them: checksums verified, a
 * record torn at the very end (the writer died mid-append) ignored as LevelDB ignores it.
 */
function* logRecords(bytes: Uint8Array, path: string): Generator<{ record: Uint8Array; offset: number }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fragments: Uint8Array[] = [];
  let start = 0;
  let at = 0;
  while (at + HEADER_SIZE <= bytes.length) {
    const left = BLOCK_SIZE - (at % BLOCK_SIZE);
    if (left < HEADER_SIZE) {
      at += left; // a block's trailer, too short for a header
      continue;
    }
    const length = view.getUint16(at + 4, true);
    const type = bytes[at + 6];
    if (HEADER_SIZE + length > Math.min(left, bytes.length - at)) {
      // Past the end of the file's last, partial block the writer died mid-record: LevelDB reads that as the end.
      if (bytes.length - (at - (at % BLOCK_SIZE)) < BLOCK_SIZE) break;
      throw new DataDirRefused(`${path} is damaged: bad record length at byte ${at}`);
    }
    if (type === 0 && length === 0) {
      at += left;
      continue;
    }
    if (unmask(view.getUint32(at, true)) !== crc32c(bytes.subarray(at + 6, at + HEADER_SIZE + length))) {
      throw new DataDirRefused(`${path} is damaged: checksum mismatch in the record at byte ${at}`);
    }
    const payload = bytes.subarray(at + HEADER_SIZE, at + HEADER_SIZE + length);
    if (type === 1 || type === 2) {
      if (fragments.length > 0) throw new DataDirRefused(`${path} is damaged: a record at byte ${start} never ends`);
      start = at;
    }
    if (type < 1 || type > 4 || (type >= 3 && fragments.length === 0)) throw new DataDirRefused(`${path} is damaged: unexpected record type ${type} at byte ${at}`);
    fragments.push(payload);
    at += HEADER_SIZE + length;
    if (type === 1 || type === 4) {
      yield { record: fragments.length === 1 ? fragments[0] : concat(fragments), offset: start };
      fragments = [];
    }
  }
}

/** Applies one VersionEdit (LevelDB's db/version_edit.cc tags) to the live table set. */
function applyEdit(edit: Uint8Array, tables: Map<number, number>, seen: Set<number>): void {
  const reader = new Varints(edit);
  const added: Array<[number, number]> = [];
  while (!reader.done()) {
    const tag = reader.varint();
    seen.add(tag);
    switch (tag) {
      case 1: // comparator name
        reader.slice();
        break;
      case 2: // log number
      case 3: // next file number
      case 4: // last sequence
      case 9: // previous log number
        reader.varint();
        break;
      case 5: // compaction pointer: level, internal key
        reader.varint();
        reader.slice();
        break;
      case 6: // deleted file: level, number
        reader.varint();
        tables.delete(reader.varint());
        break;
      case 7: {
        // new file: level, number, size, smallest and largest internal keys
        reader.varint();
        const number = reader.varint();
        const size = reader.varint();
        reader.slice();
        reader.slice();
        added.push([number, size]);
        break;
      }
      default:
        throw new Error(`unknown tag ${tag}`);
    }
  }
  // As LevelDB applies an edit: deletions first, so a file moved down a level stays live.
  for (const [number, size] of added) tables.set(number, size);
}

function checkTable(dir: string, number: number, size: number, manifest: string): void {
  const base = String(number).padStart(6, '0');
  const path = join(dir, `${base}.ldb`);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new DataDirRefused(`cannot read ${path}: ${(error as Error).message}`);
    try {
      fd = openSync(join(dir, `${base}.sst`), 'r');
    } catch {
      throw new DataDirRefused(`${path}, a table ${manifest} lists, is missing`);
    }
  }
  try {
    const actual = fstatSync(fd).size;
    if (actual !== size) throw new DataDirRefused(`${path} is ${actual < size ? 'truncated' : 'damaged'}: ${actual} bytes, where ${manifest} records ${size}`);
    const footer = new Uint8Array(8);
    if (size >= FOOTER_SIZE) readSync(fd, footer, 0, 8, size - 8);
    if (!footer.every((byte, i) => byte === TABLE_MAGIC[i])) throw new DataDirRefused(`${path} is damaged: it does not end in a table footer`);
  } finally {
    closeSync(fd);
  }
}

class Varints {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  done(): boolean {
    return this.at >= this.bytes.length;
  }

  varint(): number {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      if (this.at >= this.bytes.length) throw new Error('truncated varint');
      const byte = this.bytes[this.at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw new Error('varint too long');
  }

  slice(): Uint8Array {
    const length = this.varint();
    if (this.at + length > this.bytes.length) throw new Error('truncated field');
    this.at += length;
    return this.bytes.subarray(this.at - length, this.at);
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** CRC-32C (Castagnoli), the checksum of LevelDB's log records. */
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32c(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** LevelDB stores a record's CRC masked (rotated and offset), since CRCs of CRCs are weak. */
function unmask(masked: number): number {
  const rotated = (masked - 0xa282ead8) >>> 0;
  return ((rotated >>> 17) | (rotated << 15)) >>> 0;
}
