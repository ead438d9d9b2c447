import { createBlockFromRLP, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, equalsBytes } from '@ethereumjs/util';
import { CACHE_LIMITS, LruCache } from '../caches.js';
import { effectiveGasPrice } from '../fees/fees.js';
import type { BatchOp, Database, Section } from '../storage/database.js';
import { rlpBytes, rlpList, type RlpItem } from '../storage/rlp-shape.js';
import {
  decodeTxRecord,
  encodeTxRecord,
  logAddressKey,
  logAddressKeyNumber,
  metaKey,
  numberKey,
  type StoredReceipt,
  type TxRecord,
} from '../storage/layout.js';

const put = (sublevel: Section, key: Uint8Array, value: Uint8Array): BatchOp => ({ type: 'put', sublevel, key, value });
const del = (sublevel: Section, key: Uint8Array): BatchOp => ({ type: 'del', sublevel, key });
const EMPTY = new Uint8Array();
/** Roughly what a header and a transaction besides its data take in RLP, to weigh a block without encoding it. */
const HEADER_BYTES = 600;
const TX_BYTES = 120;

/** The addresses that emitted any of `receipts`' logs, each once. */
function emittersOf(receipts: readonly StoredReceipt[]): Uint8Array[] {
  const emitters = new Map<string, Uint8Array>();
  for (const receipt of receipts) for (const [address] of receipt.logs) emitters.set(bytesToHex(address), address);
  return [...emitters.values()];
}

/**
 * A block's transaction records read in one go at most: a larger block's are read this many at a
 * time, each slice by one LevelDB call off the main thread, so a block of thousands of transactions
 * does not hold other requests while its records are read and decoded.
 */
const RECORDS_PER_READ = 256;

/**
 * Blocks, transaction records (receipts) and indexes in LevelDB (layout: storage/layout.ts). Reads
 * are direct; writes are batch operations the caller commits together with the state they belong to.
 *
 * Point reads are synchronous (getSync): a LevelDB lookup served from its block cache or the page
 * cache takes 2-4 µs that way, against ~10 µs of CPU for an asynchronous one (a thread-pool
 * round trip and a promise), and the hot reads (a receipt, a block) are one or two lookups.
 */
export class BlockStore {
  private readonly blockCache = new LruCache<string, Block>(CACHE_LIMITS.blocks, CACHE_LIMITS.blockBytes);

  constructor(
    private readonly db: Database,
    private readonly commonFor: (header: { number: bigint; timestamp: bigint }) => Common,
  ) {}

  async block(hash: Uint8Array): Promise<Block | undefined> {
    const key = bytesToHex(hash);
    const cached = this.blockCache.get(key);
    if (cached !== undefined) return cached;
    const bytes = this.db.blocks.getSync(hash);
    if (bytes === undefined) return undefined;
    const block = this.decode(bytes);
    this.blockCache.set(key, block, bytes.length);
    return block;
  }

  async canonicalHash(number: bigint): Promise<Uint8Array | undefined> {
    if (number < 0n) return undefined;
    return this.db.canonical.getSync(numberKey(number));
  }

  /** A mined transaction's record: where it is and its receipt. */
  async txRecord(txHash: Uint8Array): Promise<TxRecord | undefined> {
    const bytes = this.db.txRecords.getSync(txHash);
    return bytes === undefined ? undefined : decodeTxRecord(bytes);
  }

  /** Every mined transaction's record, with its hash, in the order of their hashes (not the chain's). */
  async *txRecords(): AsyncGenerator<[Uint8Array, TxRecord]> {
    for await (const [hash, bytes] of this.db.txRecords.iterator()) yield [hash as Uint8Array, decodeTxRecord(bytes)];
  }

  /**
   * The records of a block's transactions, in order; undefined when one is missing or names
   * another block (a transaction mined again elsewhere after its block left the chain).
   */
  async records(block: Block): Promise<TxRecord[] | undefined> {
    const { transactions } = block;
    if (transactions.length === 0) return [];
    const hash = block.hash();
    const records: TxRecord[] = [];
    for (let start = 0; start < transactions.length; start += RECORDS_PER_READ) {
      const slice = transactions.slice(start, start + RECORDS_PER_READ);
      const found =
        transactions.length <= RECORDS_PER_READ
          ? slice.map((tx) => this.db.txRecords.getSync(tx.hash()))
          : await this.db.txRecords.getMany(slice.map((tx) => tx.hash()));
      for (const bytes of found) {
        if (bytes === undefined) return undefined;
        const record = decodeTxRecord(bytes);
        if (!equalsBytes(record.blockHash, hash)) return undefined;
        records.push(record);
      }
    }
    return records;
  }

  /**
   * The records of a block's transactions wherever they are kept: {@link records}, and for a
   * forked chain's blocks at or below the fork block, the remote's (see fork/forked-block-store.ts).
   * What answers receipts and logs reads; what only wants senders reads {@link records}, which
   * costs no remote call.
   */
  async completeRecords(block: Block): Promise<TxRecord[] | undefined> {
    return this.records(block);
  }

  /** The receipts of the block with this hash, in transaction order. */
  async receipts(blockHash: Uint8Array): Promise<StoredReceipt[] | undefined> {
    const block = await this.block(blockHash);
    return block === undefined ? undefined : (await this.completeRecords(block))?.map((record) => record.receipt);
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
   * The numbers of the blocks from `from` to `to` whose logs name one of `addresses`, ascending.
   * It may name a block that has left the chain since; its replacement's logs are read and need not match.
   */
  async logBlockNumbers(addresses: Iterable<Uint8Array>, from: bigint, to: bigint): Promise<bigint[]> {
    if (to < from || to < 0n) return [];
    const start = from < 0n ? 0n : from;
    const numbers = new Set<bigint>();
    for (const address of addresses) {
      for await (const key of this.db.logAddresses.keys({ gte: logAddressKey(address, start), lte: logAddressKey(address, to) })) {
        numbers.add(logAddressKeyNumber(key as Uint8Array));
      }
    }
    return [...numbers].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /**
   * A stored block's logs bloom, without decoding its transactions: what eth_getLogs reads for
   * every block of a range before it reads any receipt.
   */
  async logsBloom(hash: Uint8Array): Promise<Uint8Array | undefined> {
    const cached = this.blockCache.get(bytesToHex(hash));
    if (cached !== undefined) return cached.header.logsBloom;
    const bytes = this.db.blocks.getSync(hash);
    if (bytes === undefined) return undefined;
    return rlpBytes(this.headerFields(bytes)[6], 'a stored header');
  }

  async totalDifficulty(blockHash: Uint8Array): Promise<bigint | undefined> {
    const bytes = this.db.totalDifficulty.getSync(blockHash);
    return bytes === undefined ? undefined : bytesToBigInt(bytes);
  }

  async meta(name: string): Promise<Uint8Array | undefined> {
    return this.db.meta.getSync(metaKey(name));
  }

  /** The operations that make `block` canonical at its number, with its transactions' records and indexes. */
  blockOps(block: Block, receipts: StoredReceipt[], totalDifficulty: bigint): BatchOp[] {
    const hash = block.hash();
    return [
      put(this.db.blocks, hash, block.serialize()),
      put(this.db.canonical, numberKey(block.header.number), hash),
      put(this.db.totalDifficulty, hash, bigIntToUnpaddedBytes(totalDifficulty)),
      ...this.recordOps(block, receipts),
    ];
  }

  /**
   * The records of a block's transactions (those `keep` accepts, by index) and the block's entries
   * in the log address index. `receipts` are the block's, one per transaction.
   */
  recordOps(block: Block, receipts: StoredReceipt[], keep: (index: number) => boolean = () => true): BatchOp[] {
    const hash = block.hash();
    const { number, timestamp, baseFeePerGas } = block.header;
    const ops: BatchOp[] = [];
    let firstLogIndex = 0;
    block.transactions.forEach((tx, index) => {
      const receipt = receipts[index];
      const usedBlobGas = receipt.blobGasUsed !== undefined && receipt.blobGasUsed > 0n;
      const record: TxRecord = {
        blockHash: hash,
        blockNumber: number,
        blockTimestamp: timestamp,
        index,
        firstLogIndex,
        type: tx.type,
        to: tx.to?.bytes,
        effectiveGasPrice: effectiveGasPrice(tx, baseFeePerGas),
        blobGasPrice: usedBlobGas ? block.header.getBlobGasPrice() : undefined,
        receipt,
      };
      if (keep(index)) ops.push(put(this.db.txRecords, tx.hash(), encodeTxRecord(record)));
      firstLogIndex += receipt.logs.length;
    });
    for (const address of emittersOf(receipts)) ops.push(put(this.db.logAddresses, logAddressKey(address, number), EMPTY));
    return ops;
  }

  /**
   * The operations that take canonical `block` off the chain: it, its transactions' records and its
   * entries in the indexes (the log address index's found through its records' logs).
   */
  async dropOps(block: Block): Promise<BatchOp[]> {
    const hash = block.hash();
    const { number } = block.header;
    const ops: BatchOp[] = [
      del(this.db.blocks, hash),
      del(this.db.canonical, numberKey(number)),
      del(this.db.totalDifficulty, hash),
      del(this.db.stateEdits, hash),
    ];
    const receipts = (await this.records(block))?.map((record) => record.receipt) ?? [];
    for (const address of emittersOf(receipts)) ops.push(del(this.db.logAddresses, logAddressKey(address, number)));
    for (const tx of block.transactions) ops.push(del(this.db.txRecords, tx.hash()));
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

  /**
   * Deletions of every key the chain keeps, but the trie's (nodes are shared and content-addressed),
   * plus those of `extra`. The layout record goes with `meta`: whoever writes a chain again writes it.
   */
  async clearOps(extra: Section[] = []): Promise<BatchOp[]> {
    const { blocks, canonical, txRecords, logAddresses, totalDifficulty, meta, stateEdits, legacyReceipts } = this.db;
    const ops: BatchOp[] = [];
    for (const section of [blocks, canonical, txRecords, logAddresses, totalDifficulty, meta, stateEdits, legacyReceipts, ...extra]) {
      for await (const key of section.keys()) ops.push(del(section, key as Uint8Array));
    }
    return ops;
  }

  async write(ops: BatchOp[]): Promise<void> {
    await this.db.root.batch(ops);
  }

  /** Forgets what the cache holds of a block that is no longer stored. */
  forget(hash: Uint8Array): void {
    this.blockCache.delete(bytesToHex(hash));
  }

  /** Keeps a block just written, so its first readers need not decode it (weighed without encoding it again). */
  remember(block: Block): void {
    let size = HEADER_BYTES;
    for (const tx of block.transactions) size += TX_BYTES + tx.data.length;
    this.blockCache.set(bytesToHex(block.hash()), block, size);
  }

  /** The fields of a stored block's header. */
  private headerFields(bytes: Uint8Array): RlpItem[] {
    return rlpList(rlpList(RLP.decode(bytes), 'a stored block')[0], 'a stored header');
  }

  /** Decodes a stored block; the fork, and so the header's shape, follows from the number and timestamp inside it. */
  decode(bytes: Uint8Array): Block {
    const headerFields = this.headerFields(bytes);
    const number = bytesToBigInt(rlpBytes(headerFields[8], 'a stored header'));
    const timestamp = bytesToBigInt(rlpBytes(headerFields[11], 'a stored header'));
    return createBlockFromRLP(bytes, { common: this.commonFor({ number, timestamp }), setHardfork: false });
  }
}
