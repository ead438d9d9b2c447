import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToBytes, bigIntToHex, bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, equalsBytes, hexToBytes, utf8ToBytes } from '@ethereumjs/util';
import { blockSize, keepReportedSize } from '../chain/block-size.js';
import type { Log } from '../../generated/types.js';
import { BlockStore, type StoredHeader } from '../chain/block-store.js';
import type { StoredReceipt } from '../chain/receipts.js';
import type { LogCriteria } from '../filters/criteria.js';
import { encodeStoredReceipt } from '../format/raw-receipt.js';
import { loadVmLibrary } from '../state/vm.js';
import { encodeStoredBlock, encodeTxRecord, numberKey, type TxRecord } from '../storage/layout.js';
import type { ForkStore } from './fork-store.js';
import type { RemoteRpc } from './remote.js';
import { ForkStateMissing } from './proof-records.js';
import { RemoteError } from './remote.js';
import { unserved } from './fork-values.js';
import { blockFromRemote, remoteUncles, reportedTotalDifficulty, logFromRemote, receiptFromRemote, type RemoteBlockJson, type RemoteLogJson, type RemoteReceiptJson } from './remote-shapes.js';
import { effectiveGasPrice } from '../fees/fees.js';

const ABSENT_TX = 0x74;

const firstLogIndex = (json: RemoteReceiptJson) => (json.logs.length > 0 ? Number(BigInt(json.logs[0].logIndex)) : 0);

/** A receipt's record from the receipt alone, when it carries the block's timestamp and the transaction's type and price (geth's and anvil's do). */
function recordOfReceipt(json: RemoteReceiptJson, number: bigint): TxRecord {
  const receipt = receiptFromRemote(json);
  return {
    blockHash: hexToBytes(json.blockHash),
    blockNumber: number,
    blockTimestamp: BigInt(json.blockTimestamp!),
    index: Number(BigInt(json.transactionIndex)),
    firstLogIndex: firstLogIndex(json),
    type: Number(BigInt(json.type!)),
    to: json.to === undefined || json.to === null ? undefined : hexToBytes(json.to),
    effectiveGasPrice: BigInt(json.effectiveGasPrice!),
    blobGasPrice: json.blobGasPrice === undefined ? undefined : BigInt(json.blobGasPrice),
    receipt,
  };
}
const ABSENT_BLOCK = 0x68;
const SIZE = 0x7a;
const LOGS = 0x6c;
const EMPTY = new Uint8Array();

/** Keys remembered for {@link UNSEEN_FOR_MS}, at most {@link UNSEEN_KEPT} at once. */
class UnseenKeys {
  private keys = new Map<string, number>();

  has(key: Uint8Array): boolean {
    const until = this.keys.get(bytesToHex(key));
    return until !== undefined && until > Date.now();
  }

  add(key: Uint8Array): void {
    if (this.keys.size >= UNSEEN_KEPT) this.keys = new Map();
    this.keys.set(bytesToHex(key), Date.now() + UNSEEN_FOR_MS);
  }
}
const UNSEEN_FOR_MS = 30_000;
const UNSEEN_KEPT = 10_000;

/**
 * The forked chain's history at and below the fork block: blocks, transaction records and logs,
 * read from the remote the first time they are asked for and kept in the fork's store for good
 * (that history never changes; a different fork block has its own store). What the remote does not
 * have at or below the fork block is remembered too, so asking again costs nothing.
 */
export class ForkHistory {
  /** the fork store's blocks and records, read as the chain's own are */
  private readonly stored: BlockStore;
  /** false once the remote refused eth_getBlockReceipts: receipts are then asked for one by one */
  private blockReceipts = true;
  /**
   * Blocks and transactions the remote answered null for, remembered a while but not kept: one
   * backend of a provider behind the others answers null for what the chain has, and kept for good
   * that null would hide it from then on. What the remote placed above the fork block is kept.
   */
  private readonly unseen = new UnseenKeys();

  constructor(
    private readonly store: ForkStore,
    private readonly remote: RemoteRpc | undefined,
    readonly base: Block,
    /** the Common to decode a remote block with, from its header's fields */
    private readonly commonFor: (json: RemoteBlockJson) => Common,
    /** the Common a stored remote block decodes under, from its header */
    headerCommon: (header: StoredHeader) => Common,
    /** hears of each remote block read, so its state can be read too */
    private readonly onBlock: (block: Block) => void,
  ) {
    this.stored = new BlockStore(store.db, headerCommon);
  }

  private ask<T>(method: string, params: unknown[], what: string): Promise<T> {
    if (this.remote === undefined) throw new ForkStateMissing(`--offline: the fork cache holds no ${what}`);
    return this.remote.call<T>(method, params);
  }

  /** The canonical block `number` (below the fork block). */
  async blockByNumber(number: bigint): Promise<Block | undefined> {
    if (number < 0n || number > this.base.header.number) return undefined;
    if (number === this.base.header.number) return this.base;
    const hash = this.store.db.canonical.getSync(numberKey(number));
    if (hash !== undefined) return this.known(hash);
    const json = await this.ask<RemoteBlockJson | null>('eth_getBlockByNumber', [bigIntToHex(number), true], `block ${number}`);
    if (json === null) throw new RemoteError(`the fork's remote has no block ${number}, below the fork block ${this.base.header.number}`);
    const block = blockFromRemote(json, this.commonFor, await remoteUncles(json, this.remote!));
    await this.keep(block);
    return block;
  }

  async canonicalHash(number: bigint): Promise<Uint8Array | undefined> {
    return (await this.blockByNumber(number))?.hash();
  }

  /** A block by hash, if it is on the remote chain at or below the fork block. */
  async blockByHash(hash: Uint8Array): Promise<Block | undefined> {
    if (equalsBytes(hash, this.base.hash())) return this.base;
    const cached = await this.stored.block(hash);
    if (cached !== undefined) return this.known(hash, cached);
    const absent = Uint8Array.of(ABSENT_BLOCK, ...hash);
    if (this.store.fork.getSync(absent) !== undefined || this.unseen.has(absent)) return undefined;
    const json = await this.ask<RemoteBlockJson | null>('eth_getBlockByHash', [bytesToHex(hash), true], `block ${bytesToHex(hash)}`);
    if (json === null) {
      this.unseen.add(absent);
      return undefined;
    }
    const block = blockFromRemote(json, this.commonFor, await remoteUncles(json, this.remote!));
    const below = block.header.number < this.base.header.number && equalsBytes((await this.canonicalHash(block.header.number)) ?? EMPTY, hash);
    if (!below) {
      await this.store.fork.put(absent, EMPTY);
      return undefined;
    }
    return block;
  }

  private async known(hash: Uint8Array, block?: Block): Promise<Block | undefined> {
    const found = block ?? (await this.stored.block(hash));
    if (found !== undefined) {
      this.withReportedSize(found);
      this.onBlock(found);
    }
    return found;
  }

  /** A remote block read back from the store, with the size the remote reported for it. */
  withReportedSize(block: Block): Block {
    if (equalsBytes(block.hash(), this.base.hash())) keepReportedSize(block, blockSize(this.base));
    else {
      const size = this.store.fork.getSync(Uint8Array.of(SIZE, ...block.hash()));
      if (size !== undefined) keepReportedSize(block, Number(bytesToBigInt(size)));
    }
    return block;
  }

  /** The total difficulty the remote reported with the block `hash` (kept with it), if it did. */
  totalDifficulty(hash: Uint8Array): bigint | undefined {
    const bytes = this.store.db.totalDifficulty.getSync(hash);
    return bytes === undefined ? undefined : bytesToBigInt(bytes);
  }

  private async keep(block: Block): Promise<void> {
    const size = blockSize(block);
    const totalDifficulty = reportedTotalDifficulty(block);
    await this.store.db.root.batch([
      ...(totalDifficulty === undefined ? [] : [{ type: 'put' as const, sublevel: this.store.db.totalDifficulty, key: block.hash(), value: bigIntToUnpaddedBytes(totalDifficulty) }]),
      { type: 'put', sublevel: this.store.db.blocks, key: block.hash(), value: encodeStoredBlock(block.serialize()) },
      { type: 'put', sublevel: this.store.db.canonical, key: numberKey(block.header.number), value: block.hash() },
      ...(size === block.serialize().length ? [] : [{ type: 'put' as const, sublevel: this.store.fork, key: Uint8Array.of(SIZE, ...block.hash()), value: bigIntToBytes(BigInt(size)) }]),
    ]);
    this.onBlock(block);
  }

  /**
   * A transaction's record if the remote mined it at or below the fork block. One receipt call
   * answers it (and the block's header, when the remote's receipts carry no timestamp).
   */
  async txRecord(hash: Uint8Array): Promise<TxRecord | undefined> {
    const cached = await this.stored.txRecord(hash);
    if (cached !== undefined) return cached;
    const absent = Uint8Array.of(ABSENT_TX, ...hash);
    if (this.store.fork.getSync(absent) !== undefined || this.unseen.has(absent)) return undefined;
    const json = await this.ask<RemoteReceiptJson | null>('eth_getTransactionReceipt', [bytesToHex(hash)], `receipt of ${bytesToHex(hash)}`);
    if (json === null) {
      this.unseen.add(absent);
      return undefined;
    }
    const number = BigInt(json.blockNumber);
    if (number > this.base.header.number) {
      await this.store.fork.put(absent, EMPTY);
      return undefined;
    }
    const record = json.blockTimestamp !== undefined && json.type !== undefined && json.effectiveGasPrice !== undefined ? recordOfReceipt(json, number) : await this.recordWithBlock(hash, json, number);
    if (record === undefined) return undefined;
    await this.store.db.txRecords.put(hash, encodeTxRecord(record));
    return record;
  }

  /** A receipt's record from the receipt and its block, for remotes whose receipts lack the block's timestamp or the transaction's fields. */
  private async recordWithBlock(hash: Uint8Array, json: RemoteReceiptJson, number: bigint): Promise<TxRecord | undefined> {
    const blockHash = hexToBytes(json.blockHash);
    const canonical = await this.canonicalHash(number);
    if (canonical === undefined || !equalsBytes(canonical, blockHash)) return undefined;
    const block = (await this.blockByHash(blockHash))!;
    const index = Number(BigInt(json.transactionIndex));
    const tx = block.transactions[index];
    if (tx === undefined || !equalsBytes(tx.hash(), hash)) throw new RemoteError(`the fork's remote placed transaction ${bytesToHex(hash)} at index ${index} of block ${number}, which holds another`);
    const receipt = receiptFromRemote(json);
    return {
      blockHash,
      blockNumber: number,
      blockTimestamp: block.header.timestamp,
      index,
      firstLogIndex: firstLogIndex(json),
      type: tx.type,
      to: tx.to?.bytes,
      effectiveGasPrice: effectiveGasPrice(tx, block.header.baseFeePerGas),
      blobGasPrice: receipt.blobGasUsed !== undefined && receipt.blobGasUsed > 0n ? block.header.getBlobGasPrice() : undefined,
      receipt,
    };
  }

  /** The records of a remote block's transactions, from its receipts: the receipts root checked, all kept. */
  async records(block: Block): Promise<TxRecord[] | undefined> {
    const cached = await this.stored.records(block);
    if (cached !== undefined) return cached;
    const stored = (await this.receiptsOf(block)).map(receiptFromRemote);
    await this.checkReceiptsRoot(block, stored);
    await this.store.db.root.batch(this.stored.recordOps(block, stored));
    return this.stored.records(block);
  }

  /**
   * A remote block's receipts: eth_getBlockReceipts, or where the remote does not serve it (Hardhat,
   * Ganache) each transaction's receipt, all in one batch.
   */
  private async receiptsOf(block: Block): Promise<RemoteReceiptJson[]> {
    const hash = bytesToHex(block.hash());
    const what = `receipts of block ${block.header.number}`;
    if (this.blockReceipts) {
      try {
        const receipts = await this.ask<RemoteReceiptJson[] | null>('eth_getBlockReceipts', [hash], what);
        if (!Array.isArray(receipts) || receipts.length !== block.transactions.length) {
          throw new RemoteError(`the fork's remote answered eth_getBlockReceipts(${hash}) with ${Array.isArray(receipts) ? `${receipts.length} receipts for ${block.transactions.length} transactions` : 'no list'}`);
        }
        return receipts;
      } catch (error) {
        if (!unserved(error)) throw error;
        this.blockReceipts = false;
      }
    }
    const receipts = await Promise.all(block.transactions.map((tx) => this.ask<RemoteReceiptJson | null>('eth_getTransactionReceipt', [bytesToHex(tx.hash())], what)));
    receipts.forEach((receipt, i) => {
      if (receipt === null || typeof receipt !== 'object' || receipt.blockHash?.toLowerCase() !== hash) {
        throw new RemoteError(`the fork's remote has no receipt of transaction ${bytesToHex(block.transactions[i].hash())} in block ${block.header.number}`);
      }
    });
    return receipts as RemoteReceiptJson[];
  }

  private async checkReceiptsRoot(block: Block, receipts: StoredReceipt[]): Promise<void> {
    const vm = await loadVmLibrary();
    const trie = new MerklePatriciaTrie({ common: block.common });
    for (const [i, receipt] of receipts.entries()) await trie.put(RLP.encode(i), encodeStoredReceipt(vm, receipt, block.transactions[i].type));
    if (!equalsBytes(trie.root(), block.header.receiptTrie)) {
      throw new RemoteError(`the fork's remote sent receipts of block ${block.header.number} whose root ${bytesToHex(trie.root())} is not the header's ${bytesToHex(block.header.receiptTrie)}`);
    }
  }

  /**
   * The logs of blocks `from`..`to` (at or below the fork block) that match, as the remote answers
   * eth_getLogs; kept by query. A range the remote refuses as too large (providers bound a query's
   * blocks or results) is asked for again in halves, down to a block.
   */
  async logs(criteria: LogCriteria, from: bigint, to: bigint): Promise<Log[]> {
    const filter = {
      fromBlock: bigIntToHex(from),
      toBlock: bigIntToHex(to),
      ...(criteria.addresses === null ? {} : { address: [...criteria.addresses] }),
      ...(criteria.topics.length === 0 ? {} : { topics: criteria.topics.map((accepted) => (accepted === null ? null : [...accepted])) }),
    };
    const key = Uint8Array.of(LOGS, ...utf8ToBytes(JSON.stringify(filter)));
    const cached = this.store.fork.getSync(key);
    if (cached !== undefined) return JSON.parse(Buffer.from(cached).toString('utf8')) as Log[];
    let logs: Log[];
    try {
      const answer = await this.ask<RemoteLogJson[]>('eth_getLogs', [filter], `logs of blocks ${from} to ${to}`);
      if (!Array.isArray(answer)) throw new RemoteError(`the fork's remote answered eth_getLogs with no list`);
      logs = answer.map(logFromRemote);
    } catch (error) {
      if (!(error instanceof RemoteError && error.tooLarge && from < to)) throw error;
      const middle = from + (to - from) / 2n;
      logs = [...(await this.logs(criteria, from, middle)), ...(await this.logs(criteria, middle + 1n, to))];
    }
    await this.store.fork.put(key, utf8ToBytes(JSON.stringify(logs)));
    return logs;
  }
}

