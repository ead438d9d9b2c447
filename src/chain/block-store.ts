import { createBlockFromRLP, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToBytes, bytesToHex, bigIntToUnpaddedBytes, bytesToBigInt, bytesToInt, intToBytes, setLengthLeft, utf8ToBytes } from '@ethereumjs/util';
import type { BatchOp, Database, Section } from '../storage/database.js';
import { decodeReceipts, encodeReceipts, type StoredReceipt } from './receipts.js';

export interface TxLocation {
  blockHash: Uint8Array;
  index: number;
}

/** The canonical index's key: the block number, 8 bytes big-endian. */
export const numberKey = (n: bigint) => setLengthLeft(bigIntToBytes(n), 8);
const metaKey = (name: string) => utf8ToBytes(name);
const put = (sublevel: Section, key: Uint8Array, value: Uint8Array): BatchOp => ({ type: 'put', sublevel, key, value });
const del = (sublevel: Section, key: Uint8Array): BatchOp => ({ type: 'del', sublevel, key });

/**
 * Blocks, receipts and indexes in LevelDB. Reads are direct; writes are batch operations the
 * caller commits together with the state they belong to.
 */
export class BlockStore {
  private readonly blockCache = new Map<string, Block>();
  /** Decoded receipts of recently read blocks (a block's receipts never change); shared, never mutate. */
  private readonly receiptCache = new Map<string, StoredReceipt[]>();

  constructor(
    private readonly db: Database,
    private readonly commonFor: (header: { number: bigint; timestamp: bigint }) => Common,
  ) {}

  async block(hash: Uint8Array): Promise<Block | undefined> {
    const key = bytesToHex(hash);
    const cached = this.blockCache.get(key);
    if (cached !== undefined) return cached;
    const bytes = await this.db.blocks.get(hash);
    if (bytes === undefined) return undefined;
    const block = this.decode(bytes);
    this.remember(key, block);
    return block;
  }

  async canonicalHash(number: bigint): Promise<Uint8Array | undefined> {
    if (number < 0n) return undefined;
    return this.db.canonical.get(numberKey(number));
  }

  async receipts(blockHash: Uint8Array): Promise<StoredReceipt[] | undefined> {
    const key = bytesToHex(blockHash);
    const cached = this.receiptCache.get(key);
    if (cached !== undefined) return cached;
    const bytes = await this.db.receipts.get(blockHash);
    if (bytes === undefined) return undefined;
    const receipts = decodeReceipts(bytes);
    if (this.receiptCache.size >= 64) this.receiptCache.delete(this.receiptCache.keys().next().value as string);
    this.receiptCache.set(key, receipts);
    return receipts;
  }

  /** Canonical (number, hash) pairs from `from` to `to` inclusive, in order: one range scan of the index. */
  async *canonicalHashes(from: bigint, to: bigint): AsyncGenerator<[bigint, Uint8Array]> {
    if (to < from || to < 0n) return;
    const start = from < 0n ? 0n : from;
    for await (const [key, hash] of this.db.canonical.iterator({ gte: numberKey(start), lte: numberKey(to) })) {
      yield [bytesToBigInt(key as Uint8Array), hash];
    }
  }

  /**
   * A stored block's logs bloom, without decoding its transactions: what eth_getLogs reads for
   * every block of a range before it reads any receipt.
   */
  async logsBloom(hash: Uint8Array): Promise<Uint8Array | undefined> {
    const cached = this.blockCache.get(bytesToHex(hash));
    if (cached !== undefined) return cached.header.logsBloom;
    const bytes = await this.db.blocks.get(hash);
    if (bytes === undefined) return undefined;
    const [headerFields] = RLP.decode(bytes) as unknown as Uint8Array[][];
    return headerFields[6];
  }

  async txLocation(txHash: Uint8Array): Promise<TxLocation | undefined> {
    const bytes = await this.db.txIndex.get(txHash);
    if (bytes === undefined) return undefined;
    const [blockHash, index] = RLP.decode(bytes) as Uint8Array[];
    return { blockHash, index: index.length === 0 ? 0 : bytesToInt(index) };
  }

  async totalDifficulty(blockHash: Uint8Array): Promise<bigint | undefined> {
    const bytes = await this.db.totalDifficulty.get(blockHash);
    return bytes === undefined ? undefined : bytesToBigInt(bytes);
  }

  async meta(name: string): Promise<Uint8Array | undefined> {
    return this.db.meta.get(metaKey(name));
  }

  /** The operations that make `block` canonical at its number, with its receipts and indexes. */
  blockOps(block: Block, receipts: StoredReceipt[], totalDifficulty: bigint): BatchOp[] {
    const hash = block.hash();
    const ops: BatchOp[] = [
      put(this.db.blocks, hash, block.serialize()),
      put(this.db.canonical, numberKey(block.header.number), hash),
      put(this.db.receipts, hash, encodeReceipts(receipts)),
      put(this.db.totalDifficulty, hash, bigIntToUnpaddedBytes(totalDifficulty)),
    ];
    block.transactions.forEach((tx, index) => {
      ops.push(put(this.db.txIndex, tx.hash(), RLP.encode([hash, intToBytes(index)])));
    });
    return ops;
  }

  /** The operations that take canonical `block` off the chain: it, its receipts and its indexes. */
  dropOps(block: Block): BatchOp[] {
    const hash = block.hash();
    const ops: BatchOp[] = [
      del(this.db.blocks, hash),
      del(this.db.canonical, numberKey(block.header.number)),
      del(this.db.receipts, hash),
      del(this.db.totalDifficulty, hash),
      del(this.db.stateEdits, hash),
    ];
    for (const tx of block.transactions) ops.push(del(this.db.txIndex, tx.hash()));
    return ops;
  }

  metaOp(name: string, value: Uint8Array): BatchOp {
    return put(this.db.meta, metaKey(name), value);
  }

  metaDelOp(name: string): BatchOp {
    return del(this.db.meta, metaKey(name));
  }

  stateEditOp(blockHash: Uint8Array, stateRoot: Uint8Array | undefined): BatchOp {
    return stateRoot === undefined ? del(this.db.stateEdits, blockHash) : put(this.db.stateEdits, blockHash, stateRoot);
  }

  /** Every block hash with edited state, and the root after the edits. */
  async *stateEdits(): AsyncGenerator<[Uint8Array, Uint8Array]> {
    for await (const [hash, root] of this.db.stateEdits.iterator()) yield [hash as Uint8Array, root];
  }

  /** Deletions of every key the chain keeps, but the trie's (nodes are shared and content-addressed), plus those of `extra`. */
  async clearOps(extra: Section[] = []): Promise<BatchOp[]> {
    const { blocks, canonical, receipts, txIndex, totalDifficulty, meta, stateEdits } = this.db;
    const ops: BatchOp[] = [];
    for (const section of [blocks, canonical, receipts, txIndex, totalDifficulty, meta, stateEdits, ...extra]) {
      for await (const key of section.keys()) ops.push(del(section, key as Uint8Array));
    }
    return ops;
  }

  async write(ops: BatchOp[]): Promise<void> {
    await this.db.root.batch(ops);
  }

  /** Forgets what the caches hold of a block that is no longer stored. */
  forget(hash: Uint8Array): void {
    const key = bytesToHex(hash);
    this.blockCache.delete(key);
    this.receiptCache.delete(key);
  }

  remember(key: string, block: Block): void {
    if (this.blockCache.size >= 256) this.blockCache.delete(this.blockCache.keys().next().value as string);
    this.blockCache.set(key, block);
  }

  private decode(bytes: Uint8Array): Block {
    // The fork, and so the header's shape, follows from the number and timestamp inside the header.
    const [headerFields] = RLP.decode(bytes) as unknown as Uint8Array[][];
    const number = bytesToBigInt(headerFields[8]);
    const timestamp = bytesToBigInt(headerFields[11]);
    return createBlockFromRLP(bytes, { common: this.commonFor({ number, timestamp }), setHardfork: false });
  }
}
