// The data dir's tables are written uncompressed: what the node stores barely compresses, and LevelDB
// serves an uncompressed block straight from the mapped table instead of decompressing it on each read.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { openDatabase, type DiskDatabase } from '../../src/storage/database.js';

describe('LevelDB table compression', () => {
  let dir: string;
  let db: DiskDatabase | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evm-node-compression-'));
  });

  afterEach(async () => {
    await db?.close();
    db = undefined;
    await rm(dir, { recursive: true, force: true });
  });

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
