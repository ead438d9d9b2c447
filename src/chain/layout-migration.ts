import { bytesToHex, equalsBytes, intToBytes } from '@ethereumjs/util';
import { RLP } from '@ethereumjs/rlp';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { nativeCrypto } from '../crypto/native.js';
import { isSealed, seal } from '../storage/checksum.js';
import type { BatchOp, Database, Section } from '../storage/database.js';
import { decodeLegacyReceipts, decodeLegacyTxLocation, decodeTxRecord, decodeUnsealedTxRecord, LAYOUT_VERSION, metaKey } from '../storage/layout.js';
import { rlpList } from '../storage/rlp-shape.js';
import { DataDirRefused } from '../storage/storage-fault.js';
import type { BlockStore } from './block-store.js';

/** Blocks migrated per atomic batch. */
const BLOCKS_PER_BATCH = 256;
/** Records sealed per atomic batch. */
const RECORDS_PER_BATCH = 1024;

/** The layout a data dir was written in: 1 for data dirs from before the `layout` record. */
export async function storedLayout(db: Database): Promise<number> {
  const bytes = await db.meta.get(metaKey('layout'));
  return bytes === undefined ? 1 : bytes.reduce((n, byte) => n * 256 + byte, 0);
}

export const layoutOp = (db: Database, version = LAYOUT_VERSION): BatchOp => ({ type: 'put', sublevel: db.meta, key: metaKey('layout'), value: intToBytes(version) });

/** The block hash a transaction's stored record names, in any layout; undefined when it has none. */
function recordedBlock(bytes: Uint8Array | undefined): Uint8Array | undefined {
  if (bytes === undefined) return undefined;
  if (isSealed(bytes)) return decodeTxRecord(bytes).blockHash;
  return decodeLegacyTxLocation(bytes)?.blockHash ?? decodeUnsealedTxRecord(bytes).blockHash;
}

/**
 * Brings a data dir written in an older layout to the current one (storage/layout.ts), before
 * anything reads it, one step at a time; each step lands its layout record with its last batch.
 * Layout 1 → 2: each block's receipt list becomes its transactions' records, and the log address
 * index is built. Layout 2 → 3: blocks and records get their checksums. Each batch lands
 * atomically and a step skips what is done, so a migration cut short (kill -9) resumes where it
 * stopped. A data dir of a newer layout is refused: this node cannot read it.
 */
export async function migrateLayout(db: Database, blocks: BlockStore, progress: (message: string) => void = () => {}): Promise<void> {
  const layout = await storedLayout(db);
  if (layout === LAYOUT_VERSION) return;
  if (layout > LAYOUT_VERSION) throw new DataDirRefused(`it was written in storage layout ${layout}, newer than this node's (${LAYOUT_VERSION}); use a newer evm-node`);
  progress(`migrating the data dir from storage layout ${layout} to ${LAYOUT_VERSION}`);
  const migrated = layout < 2 ? await receiptListsToRecords(db, blocks) : 0;
  const sealed = await sealBlocksAndRecords(db);
  progress(`migrated to storage layout ${LAYOUT_VERSION}: ${layout < 2 ? `${migrated} blocks' receipts as records, ` : ''}${sealed} blocks and records checksummed`);
}

/** Layout 1 → 2; answers how many blocks' receipts it moved. */
async function receiptListsToRecords(db: Database, blocks: BlockStore): Promise<number> {
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
  await db.root.batch([layoutOp(db, 2)]);
  return migrated;
}

const keccak = nativeCrypto.keccak256 ?? keccak256;

/**
 * Layout 2 → 3: every block and transaction record without its checksum gets one. A block is
 * sealed only once its header hashes to the key it is stored under, so damage there is refused
 * rather than given a checksum that would vouch for it. Answers how many it sealed.
 */
async function sealBlocksAndRecords(db: Database): Promise<number> {
  let sealed = 0;
  const sealSection = async (section: Section, check: (key: Uint8Array, value: Uint8Array) => void = () => {}) => {
    let after: Uint8Array | undefined;
    for (;;) {
      const entries = (await section.iterator({ ...(after === undefined ? {} : { gt: after }), limit: RECORDS_PER_BATCH }).all()) as [Uint8Array, Uint8Array][];
      if (entries.length === 0) return;
      const ops: BatchOp[] = [];
      for (const [key, value] of entries) {
        if (isSealed(value)) continue;
        check(key, value);
        ops.push({ type: 'put', sublevel: section, key, value: seal(value) });
      }
      if (ops.length > 0) await db.root.batch(ops);
      sealed += ops.length;
      after = entries[entries.length - 1][0];
    }
  };
  await sealSection(db.blocks, (hash, value) => {
    const headerHash = keccak(RLP.encode(rlpList(RLP.decode(value), 'a stored block')[0]));
    if (!equalsBytes(headerHash, hash)) throw new DataDirRefused(`its chain is damaged: the block stored under ${bytesToHex(hash)} has a header that hashes to ${bytesToHex(headerHash)}`);
  });
  await sealSection(db.txRecords);
  await db.root.batch([layoutOp(db, 3)]);
  return sealed;
}
