// The data dir's LevelDB tables. LevelDB maps each table file it opens, and what reads touched of it
// stays in the node's resident memory until the table is closed: the database keeps at most
// CACHE_LIMITS.levelOpenFiles files open (64 tables), however large it grows. And its tables are written
// uncompressed: what the node stores barely compresses, and LevelDB serves an uncompressed block straight
// from the mapped table instead of decompressing it on each read.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { CACHE_LIMITS } from '../../src/caches.js';
import { openDatabase, type DiskDatabase } from '../../src/storage/database.js';

/** LevelDB's files besides tables (the log, the manifest, the info log...): what its open-file bound counts besides them. */
const OTHER_FILES = 10;

/** Distinct table files of `dir` mapped into this process. */
async function mappedTables(dir: string): Promise<number> {
  const maps = await readFile('/proc/self/maps', 'utf8');
  const files = maps.split('\n').filter((line) => line.includes(dir) && line.endsWith('.ldb')).map((line) => line.slice(line.indexOf(dir)));
  return new Set(files).size;
}

describe('LevelDB tables of the data dir', function () {
  this.timeout(60_000);
  let dir: string;
  let db: DiskDatabase | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evm-node-tables-'));
  });

  afterEach(async () => {
    await db?.close();
    db = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  describe('open files', () => {
    it('stay within the bound after every table of a large database was read', async function () {
      if (process.platform !== 'linux') this.skip();
      db = await openDatabase(dir);
      // ~240 MB that does not compress: more tables than the bound lets stay open.
      const value = randomBytes(64 * 1024);
      for (let batch = 0; batch < 60; batch++) {
        const ops = Array.from({ length: 64 }, (_, i) => {
          const key = new Uint8Array(4);
          new DataView(key.buffer).setUint32(0, batch * 64 + i);
          const distinct = Uint8Array.from(value);
          distinct.set([i, batch]);
          return { type: 'put' as const, key, value: distinct };
        });
        await db.root.batch(ops);
      }
      await db.level.compactRange(new Uint8Array([0]), new Uint8Array([0xff, 0xff, 0xff, 0xff]));
      const tables = (await readdir(dir)).filter((name) => name.endsWith('.ldb')).length;
      expect(tables).to.be.greaterThan(CACHE_LIMITS.levelOpenFiles - OTHER_FILES);

      for await (const key of db.root.keys()) expect(await db.root.get(key)).to.have.length(value.length);
      const mapped = await mappedTables(dir);
      expect(mapped).to.be.greaterThan(0);
      expect(mapped).to.be.at.most(CACHE_LIMITS.levelOpenFiles - OTHER_FILES);
    });
  });

  describe('compression', () => {
    it('writes tables as large as what they hold, even when it would compress', async () => {
      db = await openDatabase(dir);
      // 4 MB of zeros, which Snappy would store in a few hundred kilobytes.
      const value = new Uint8Array(4096);
      const ops = Array.from({ length: 1024 }, (_, i) => {
        const key = new Uint8Array(4);
        new DataView(key.buffer).setUint32(0, i);
        return { type: 'put' as const, key, value };
      });
      await db.root.batch(ops);
      await db.level.compactRange(new Uint8Array([0]), new Uint8Array([0xff, 0xff, 0xff, 0xff]));
      const tables = (await readdir(dir)).filter((name) => name.endsWith('.ldb'));
      const bytes = (await Promise.all(tables.map(async (name) => (await stat(join(dir, name))).size))).reduce((sum, size) => sum + size, 0);
      expect(bytes).to.be.at.least(1024 * 4096);
    });
  });
});
