import { createBlockFromRLP, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, equalsBytes } from '@ethereumjs/util';
import { CACHE_LIMITS, LruCache } from '../caches.js';
import { effectiveGasPrice } from '../fees/fees.js';
import { ChecksumMismatch } from '../storage/checksum.js';
import type { BatchOp, Database, Section } from '../storage/database.js';
import { rlpBytes, rlpList, type RlpItem } from '../storage/rlp-shape.js';
import {
  decodeTxRecord,
  encodeStoredBlock,
  encodeTxRecord,
  logAddressKey,
  logAddressKeyNumber,
  metaKey,
  numberKey,
  storedBlockRlp,
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

const recordName = (txHash: Uint8Array): string => `the record of transaction ${bytesToHex(txHash)}`;

/**
 * A block's transaction records read in one go at most: a larger block's are read this many at a
 * time, each slice by one LevelDB call off the main thread, so a block of thousands of transactions
 * does not hold other requests while its records are read and decoded.
 */
const RECORDS_PER_READ = 256;

/** What a stored block's Common is chosen by. */
export interface StoredHeader {
  number: bigint;
  timestamp: bigint;
  /** the header's RLP fields */
  fields: readonly RlpItem[];
}

/**
 * Blocks, transaction records (receipts) and indexes in LevelDB (layout: storage/layout.ts). Reads
 * are direct; writes are batch operations the caller commits together with the state they belong to.
 *
 * Point reads are synchronous (getSync): a LevelDB lookup served from its block cache or the page
 * cache takes 2-4 µs that way, against ~10 µs of CPU for an asynchronous one (a thread-pool
 * round trip and a promise), and the hot reads (a receipt, a block) are one or two lookups.
 *
 * Every block and record read is checked against the checksum stored with it (storage/layout.ts):
 * one that does not match, or that LevelDB reports damaged, is refused as StorageDamage naming it.
 */
export class BlockStore {
  private readonly blockCache = new LruCache<string, Block>(CACHE_LIMITS.blocks, CACHE_LIMITS.blockBytes);

  constructor(
    private readonly db: Database,
    /** the Common a stored block decodes under, from its header: its number, time and fields */
    private readonly commonFor: (header: StoredHeader) => Common,
  ) {}

  async block(hash: Uint8Array): Promise<Block | undefined> {
    const key = bytesToHex(hash);
    const cached = this.blockCache.get(key);
    if (cached !== undefined) return cached;
    const rlp = this.blockRlp(hash);
    if (rlp === undefined) return undefined;
    const block = this.decode(rlp);
    this.blockCache.set(key, block, rlp.length);
    return block;
  }

  async canonicalHash(number: bigint): Promise<Uint8Array | undefined> {
    if (number < 0n) return undefined;
    return this.db.damage.read(() => `the canonical index entry of block ${number}`, () => this.db.canonical.getSync(numberKey(number)));
  }

  /** A mined transaction's record: where it is and its receipt. */
  async txRecord(txHash: Uint8Array): Promise<TxRecord | undefined> {
    const bytes = this.db.damage.read(() => recordName(txHash), () => this.db.txRecords.getSync(txHash));
    return bytes === undefined ? undefined : this.checkedRecord(txHash, bytes);
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
          ? slice.map((tx) => this.db.damage.read(() => recordName(tx.hash()), () => this.db.txRecords.getSync(tx.hash())))
          : await this.db.damage.readAsync(() => `the records of block ${block.header.number}'s transactions`, () => this.db.txRecords.getMany(slice.map((tx) => tx.hash())));
      for (const [i, bytes] of found.entries()) {
        if (bytes === undefined) return undefined;
        const record = this.checkedRecord(slice[i].hash(), bytes);
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
    try {
      for await (const [key, hash] of this.db.canonical.iterator({ gte: numberKey(start), lte: numberKey(to) })) {
        yield [bytesToBigInt(key as Uint8Array), hash];
      }
    } catch (error) {
      throw this.db.damage.caught(error, () => `the canonical index of blocks ${start}–${to}`);
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
      try {
        for await (const key of this.db.logAddresses.keys({ gte: logAddressKey(address, start), lte: logAddressKey(address, to) })) {
          numbers.add(logAddressKeyNumber(key as Uint8Array));
        }
      } catch (error) {
        throw this.db.damage.caught(error, () => `the log address index of ${bytesToHex(address)}`);
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
    const rlp = this.blockRlp(hash);
    if (rlp === undefined) return undefined;
    return rlpBytes(this.headerFields(rlp)[6], 'a stored header');
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
      put(this.db.blocks, hash, encodeStoredBlock(block.serialize())),
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
    const ops: BatchOp[] = [];
    txRecordsOf(block, receipts).forEach((record, index) => {
      if (keep(index)) ops.push(put(this.db.txRecords, block.transactions[index].hash(), encodeTxRecord(record)));
    });
    for (const address of emittersOf(receipts)) ops.push(put(this.db.logAddresses, logAddressKey(address, block.header.number), EMPTY));
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

  /** Damage the chain found in what it read here: reported as the store's own (storage/damage.ts). */
  damaged(record: string, problem: string): Error {
    return this.db.damage.found(record, problem);
  }

  /** The RLP of the block stored under `hash`, its checksum checked; undefined when none is stored. */
  private blockRlp(hash: Uint8Array): Uint8Array | undefined {
    const name = () => `block ${bytesToHex(hash)}`;
    const value = this.db.damage.read(name, () => this.db.blocks.getSync(hash));
    if (value === undefined) return undefined;
    try {
      return storedBlockRlp(value);
    } catch (error) {
      if (error instanceof ChecksumMismatch) throw this.db.damage.found(name(), 'does not match the checksum stored with it');
      throw error;
    }
  }

  /** A stored transaction record, its checksum checked. */
  private checkedRecord(txHash: Uint8Array, value: Uint8Array): TxRecord {
    try {
      return decodeTxRecord(value);
    } catch (error) {
      if (error instanceof ChecksumMismatch) throw this.db.damage.found(recordName(txHash), 'does not match the checksum stored with it');
      throw error;
    }
  }

  /** The fields of a block's header, from its RLP. */
  private headerFields(bytes: Uint8Array): RlpItem[] {
    return rlpList(rlpList(RLP.decode(bytes), 'a stored block')[0], 'a stored header');
  }

  /**
   * Decodes a block's RLP; the fork, and so the header's shape, follows from the header (its number
   * and timestamp, or for another chain's blocks its fields). Decoding checks no consensus rule: the
   * block was checked as it came (a forked chain's by its hash, which a remote chain's own rules —
   * BSC's or Arbitrum's difficulty, say — do not make a PoS header's).
   */
  decode(bytes: Uint8Array): Block {
    const fields = this.headerFields(bytes);
    const number = bytesToBigInt(rlpBytes(fields[8], 'a stored header'));
    const timestamp = bytesToBigInt(rlpBytes(fields[11], 'a stored header'));
    // No setHardfork, not even false: given at all, the library sets each uncle's fork by the chain's schedule.
    return createBlockFromRLP(bytes, { common: this.commonFor({ number, timestamp, fields }), skipConsensusFormatValidation: true });
  }
}

/** The records of `block`'s transactions, given its receipts (one per transaction): their places in the block and what a receipt reports. */
export function txRecordsOf(block: Block, receipts: StoredReceipt[]): TxRecord[] {
  const hash = block.hash();
  const { number, timestamp, baseFeePerGas } = block.header;
  let firstLogIndex = 0;
  return block.transactions.map((tx, index) => {
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
    firstLogIndex += receipt.logs.length;
    return record;
  });
}
