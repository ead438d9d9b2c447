// The chain's storage layout in one place: the key spaces of the node's one LevelDB, how their keys
// are made, and the records the chain keeps in them. (The pool's journal entry is described in
// txpool/journal.ts, a filter's record in filters/registry.ts; both live in key spaces named here.)
//
// Layout 3 (this one), per key space:
//   t  trie node or contract code hash → node or code bytes (content-addressed, never deleted)
//   b  block hash → RLP block, sealed (below)
//   n  block number (8 bytes, big-endian) → canonical block hash
//   x  transaction hash → TxRecord, sealed: where the transaction is, what its receipt reports, and
//      the receipt itself — one read answers eth_getTransactionReceipt
//   a  log emitter (20 bytes) ‖ block number (8 bytes) → empty: the blocks whose logs name an
//      address, so eth_getLogs with an address reads only those blocks, however long the chain
//   d  block hash → total difficulty
//   m  name → singleton: head, genesis, genesisSpec, safe, finalized, layout
//   e  block hash → the state root state edits (anvil_setBalance & co.) left on top of that block
//   h  keccak256(key) → key: the addresses and storage slots the state trie holds by their hashes
//      (state/preimages.ts); a data dir written before it existed lacks those it held then
//   p  the pool's journal;  f  installed filters
//
// Sealed: the record's bytes followed by their CRC-32 (storage/checksum.ts), checked on every read,
// since LevelDB reads without checking its tables. Trie nodes need none: each is stored under its
// own hash, which a read recomputes (storage/trie-store.ts).
//
// Layout 2 stored blocks and transaction records without the checksum. Layout 1 (data dirs written
// before the `layout` record existed) kept each block's receipts as one list in `r` (block hash →
// RLP list of receipts) and RLP [block hash, index] in `x`, and had no `a`; its `e` is the later
// layouts'. Such a data dir is migrated when it opens (chain/layout-migration.ts).
//
// The layout version covers the key spaces and the chain's records. The pool's journal versions
// each entry itself (its first byte: format 1, or 2 with the sender of an impersonated account's
// transaction), so entries of either format live in one journal and need no migration.
import { RLP, type Input } from '@ethereumjs/rlp';
import { seal, unseal } from './checksum.js';
import { rlpBytes, rlpBytesList, rlpList, type RlpItem } from './rlp-shape.js';
import { bigIntToBytes, bigIntToUnpaddedBytes, bytesToBigInt, bytesToInt, setLengthLeft, utf8ToBytes } from '@ethereumjs/util';

export const LAYOUT_VERSION = 3;

/** The key space names, one short prefix each. */
export const SECTION_NAMES = {
  trie: 't',
  blocks: 'b',
  canonical: 'n',
  txRecords: 'x',
  logAddresses: 'a',
  totalDifficulty: 'd',
  meta: 'm',
  stateEdits: 'e',
  preimages: 'h',
  pool: 'p',
  filters: 'f',
  /** layout 1 only: emptied by the migration */
  legacyReceipts: 'r',
} as const;

/** The canonical index's key: the block number, 8 bytes big-endian (so keys sort by number). */
export const numberKey = (n: bigint): Uint8Array => setLengthLeft(bigIntToBytes(n), 8);

export const metaKey = (name: string): Uint8Array => utf8ToBytes(name);

/** The `a` key: an address's entry for one block. */
export function logAddressKey(address: Uint8Array, number: bigint): Uint8Array {
  const key = new Uint8Array(28);
  key.set(address, 0);
  key.set(numberKey(number), 20);
  return key;
}

/** The block number of an `a` key. */
export const logAddressKeyNumber = (key: Uint8Array): bigint => bytesToBigInt(key.subarray(20));

/** An EVM log as the EVM emits it: [address, topics, data]. */
export type RawLog = [address: Uint8Array, topics: Uint8Array[], data: Uint8Array];

/**
 * What the node keeps per executed transaction: the consensus receipt plus what the RPC reports
 * and would otherwise have to recompute (the sender costs a signature recovery).
 */
export interface StoredReceipt {
  /** 1 success, 0 failure; undefined before Byzantium, where `stateRoot` stands instead */
  status?: 0 | 1;
  stateRoot?: Uint8Array;
  cumulativeGasUsed: bigint;
  gasUsed: bigint;
  logs: RawLog[];
  sender: Uint8Array;
  contractAddress?: Uint8Array;
  blobGasUsed?: bigint;
}

/** A mined transaction's record (`x`): its place in the chain, the facts of it a receipt reports, its receipt. */
export interface TxRecord {
  blockHash: Uint8Array;
  blockNumber: bigint;
  blockTimestamp: bigint;
  index: number;
  /** the block-wide index of the transaction's first log */
  firstLogIndex: number;
  type: number;
  to?: Uint8Array;
  effectiveGasPrice: bigint;
  /** the block's blob gas price, kept for transactions that used blob gas */
  blobGasPrice?: bigint;
  receipt: StoredReceipt;
}

const int = (n: bigint | number) => bigIntToUnpaddedBytes(BigInt(n));
const empty = new Uint8Array();
/** An optional number: empty when absent, else the value plus one (so zero stays distinguishable). */
const optionalInt = (n: bigint | undefined) => (n === undefined ? empty : bigIntToUnpaddedBytes(n + 1n));
const readOptionalInt = (b: Uint8Array) => (b.length === 0 ? undefined : bytesToBigInt(b) - 1n);
const readInt = (b: Uint8Array) => (b.length === 0 ? 0 : bytesToInt(b));

function receiptFields(r: StoredReceipt): Input[] {
  return [
    r.status === undefined ? empty : int(BigInt(r.status + 1)),
    r.stateRoot ?? empty,
    int(r.cumulativeGasUsed),
    int(r.gasUsed),
    r.logs,
    r.sender,
    r.contractAddress ?? empty,
    optionalInt(r.blobGasUsed),
  ];
}

function readLog(item: RlpItem): RawLog {
  const [address, topics, data] = rlpList(item, 'a stored log', 3);
  return [rlpBytes(address, 'a log address'), rlpBytesList(topics, 'a log\'s topics'), rlpBytes(data, 'a log\'s data')];
}

function readReceipt(item: RlpItem | undefined): StoredReceipt {
  const [statusItem, stateRootItem, cumulativeItem, gasUsedItem, logsItem, senderItem, contractItem, blobGasItem] = rlpList(item, 'a stored receipt', 8);
  const bytes = (field: RlpItem | undefined) => rlpBytes(field, 'a stored receipt');
  const [status, stateRoot, cumulative, gasUsed, sender, contract, blobGas] = [statusItem, stateRootItem, cumulativeItem, gasUsedItem, senderItem, contractItem, blobGasItem].map(bytes);
  const logs = rlpList(logsItem, 'a stored receipt\'s logs').map(readLog);
  return {
    status: status.length === 0 ? undefined : (Number(bytesToBigInt(status)) - 1) as 0 | 1,
    stateRoot: stateRoot.length === 0 ? undefined : stateRoot,
    cumulativeGasUsed: bytesToBigInt(cumulative),
    gasUsed: bytesToBigInt(gasUsed),
    logs,
    sender,
    contractAddress: contract.length === 0 ? undefined : contract,
    blobGasUsed: readOptionalInt(blobGas),
  };
}

/** A transaction record as stored: sealed. */
export function encodeTxRecord(r: TxRecord): Uint8Array {
  const rlp = RLP.encode([
    r.blockHash,
    int(r.blockNumber),
    int(r.blockTimestamp),
    int(r.index),
    int(r.firstLogIndex),
    int(r.type),
    r.to ?? empty,
    int(r.effectiveGasPrice),
    optionalInt(r.blobGasPrice),
    receiptFields(r.receipt),
  ]);
  return seal(rlp);
}

/** A stored transaction record; ChecksumMismatch when it is not what was written. */
export function decodeTxRecord(value: Uint8Array): TxRecord {
  return decodeUnsealedTxRecord(unseal(value, 'a transaction record'));
}

/** A transaction record's RLP, its checksum checked or never stored (layout 2). */
export function decodeUnsealedTxRecord(bytes: Uint8Array): TxRecord {
  const fields = rlpList(RLP.decode(bytes), 'a transaction record', 10);
  const [blockHash, number, timestamp, index, firstLogIndex, type, to, price, blobGasPrice] = fields.slice(0, 9).map((field) => rlpBytes(field, 'a transaction record'));
  const receipt = fields[9];
  return {
    blockHash,
    blockNumber: bytesToBigInt(number),
    blockTimestamp: bytesToBigInt(timestamp),
    index: readInt(index),
    firstLogIndex: readInt(firstLogIndex),
    type: readInt(type),
    to: to.length === 0 ? undefined : to,
    effectiveGasPrice: bytesToBigInt(price),
    blobGasPrice: readOptionalInt(blobGasPrice),
    receipt: readReceipt(receipt),
  };
}

/** Layout 1's `x` record: [block hash, index]. */
export function decodeLegacyTxLocation(bytes: Uint8Array): { blockHash: Uint8Array; index: number } | undefined {
  const fields = RLP.decode(bytes);
  if (fields instanceof Uint8Array || fields.length !== 2) return undefined;
  return { blockHash: rlpBytes(fields[0], 'a layout 1 transaction location'), index: readInt(rlpBytes(fields[1], 'a layout 1 transaction location')) };
}

/** Layout 1's `r` record: a block's receipts as one list. */
export function decodeLegacyReceipts(bytes: Uint8Array): StoredReceipt[] {
  return rlpList(RLP.decode(bytes), 'a layout 1 receipt list').map(readReceipt);
}

/** A block as stored: its RLP, sealed. */
export const encodeStoredBlock = (rlp: Uint8Array): Uint8Array => seal(rlp);

/** The RLP of a stored block; ChecksumMismatch when it is not what was written. */
export const storedBlockRlp = (value: Uint8Array): Uint8Array => unseal(value, 'a stored block');
