import { bytesToHex, equalsBytes, intToBytes } from '@ethereumjs/util';
import type { BatchOp, Database } from '../storage/database.js';
import { decodeLegacyReceipts, decodeLegacyTxLocation, decodeTxRecord, LAYOUT_VERSION, metaKey } from '../storage/layout.js';
import { DataDirRefused } from '../storage/storage-fault.js';
import type { BlockStore } from './block-store.js';

/** Blocks migrated per atomic batch. */
const BLOCKS_PER_BATCH = 256;

/** The layout a data dir was written in: 1 for data dirs from before the `layout` record. */
export async function storedLayout(db: Database): Promise<number> {
  const bytes = await db.meta.get(metaKey('layout'));
  return bytes === undefined ? 1 : bytes.reduce((n, byte) => n * 256 + byte, 0);
}

export const layoutOp = (db: Database): BatchOp => ({ type: 'put', sublevel: db.meta, key: metaKey('layout'), value: intToBytes(LAYOUT_VERSION) });

/** The block hash a transaction's stored record names, in either layout; undefined when it has none. */
function recordedBlock(bytes: Uint8Array | undefined): Uint8Array | undefined {
  if (bytes === undefined) return undefined;
  return decodeLegacyTxLocation(bytes)?.blockHash ?? decodeTxRecord(bytes).blockHash;
}

/**
 * Brings a data dir written in an older layout to the current one (storage/layout.ts), before
 * anything reads it. Layout 1 → 2: each block's receipt list becomes its transactions' records,
 * and the log address index is built. Each batch of blocks lands atomically with the removal of
 * their old lists, so a migration cut short (kill -9) resumes where it stopped; the layout record
 * goes last. A data dir of a newer layout is refused: this node cannot read it.
 */
export async function migrateLayout(db: Database, blocks: BlockStore, progress: (message: string) => void = () => {}): Promise<void> {
  const layout = await storedLayout(db);
  if (layout === LAYOUT_VERSION) return;
  if (layout > LAYOUT_VERSION) throw new DataDirRefused(`it was written in storage layout ${layout}, newer than this node's (${LAYOUT_VERSION}); use a newer evm-node`);
  progress(`migrating the data dir from storage layout ${layout} to ${LAYOUT_VERSION}`);
  let migrated = 0;
  for (;;) {
    const entries = await db.legacyReceipts.iterator({ limit: BLOCKS_PER_BATCH }).all();
    if (entries.length === 0) break;
    const ops: BatchOp[] = [];
    for (const [hash, list] of entries as [Uint8Array, Uint8Array][]) {
      ops.push({ type: 'del', sublevel: db.legacyReceipts, key: hash });
      const bytes = await db.blocks.get(hash);
      // Receipts of a block the data dir no longer holds describe nothing that can be asked for.
      if (bytes === undefined) continue;
      const block = blocks.decode(bytes);
      const receipts = decodeLegacyReceipts(list);
      if (receipts.length !== block.transactions.length) {
        throw new DataDirRefused(`its chain is damaged: block ${block.header.number} (${bytesToHex(hash)}) has ${block.transactions.length} transactions but ${receipts.length} receipts`);
      }
      // A transaction mined again in another block keeps the record that names that block.
      const named = await db.txRecords.getMany(block.transactions.map((tx) => tx.hash()));
      ops.push(...blocks.recordOps(block, receipts, (index) => equalsBytes(recordedBlock(named[index]) ?? hash, hash)));
    }
    await db.root.batch(ops);
    migrated += entries.length;
  }
  await db.root.batch([layoutOp(db)]);
  progress(`migrated ${migrated} blocks to storage layout ${LAYOUT_VERSION}`);
}
