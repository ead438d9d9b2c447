// What the remote answers, read into the node's own shapes: blocks into @ethereumjs Blocks (their
// hash checked against the one the remote names), receipts into stored receipts, logs into the
// contract's Log. A remote answer that does not fit is refused, never patched up.
import { Block, createBlockFromRPC, createBlockHeaderFromRPC, type JSONRPCBlock } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { Log } from '../../generated/types.js';
import type { StoredReceipt } from '../chain/receipts.js';
import { RemoteError } from './remote.js';
import { keepReportedSize } from '../chain/block-size.js';

/** A remote block's JSON (eth_getBlockBy*, full transactions), as far as it is read here. */
export type RemoteBlockJson = JSONRPCBlock & {
  hash: PrefixedHexString;
  number: PrefixedHexString;
  timestamp: PrefixedHexString;
  /** this node's own: the uncles' headers, kept with the fork block (remoteUncles) */
  uncleHeaders?: unknown[];
};

export interface RemoteLogJson {
  address: PrefixedHexString;
  topics: PrefixedHexString[];
  data: PrefixedHexString;
  blockNumber: PrefixedHexString;
  blockHash: PrefixedHexString;
  blockTimestamp?: PrefixedHexString;
  transactionHash: PrefixedHexString;
  transactionIndex: PrefixedHexString;
  logIndex: PrefixedHexString;
}

export interface RemoteReceiptJson {
  blockHash: PrefixedHexString;
  blockNumber: PrefixedHexString;
  blockTimestamp?: PrefixedHexString;
  transactionIndex: PrefixedHexString;
  status?: PrefixedHexString;
  root?: PrefixedHexString;
  cumulativeGasUsed: PrefixedHexString;
  gasUsed: PrefixedHexString;
  from: PrefixedHexString;
  contractAddress?: PrefixedHexString | null;
  blobGasUsed?: PrefixedHexString;
  blobGasPrice?: PrefixedHexString;
  type?: PrefixedHexString;
  to?: PrefixedHexString | null;
  effectiveGasPrice?: PrefixedHexString;
  logs: RemoteLogJson[];
}

const HEX = /^0x[0-9a-fA-F]*$/;

function hexField(value: unknown, what: string): PrefixedHexString {
  if (typeof value !== 'string' || !HEX.test(value)) throw new RemoteError(`the fork's remote sent ${what} that is not hex: ${JSON.stringify(value)}`);
  return value as PrefixedHexString;
}

/** The fork a remote header's fields say it is of: what decoding it needs. */
export function forkOfHeader(json: Record<string, unknown>, newest: string): string {
  if (json.requestsHash !== undefined) return newest;
  if (json.parentBeaconBlockRoot !== undefined) return 'cancun';
  if (json.withdrawalsRoot !== undefined) return 'shanghai';
  if (json.baseFeePerGas !== undefined) return BigInt(hexField(json.difficulty ?? '0x0', 'a difficulty')) === 0n ? 'paris' : 'london';
  return 'berlin';
}


/** Total difficulties remote blocks came with (geth stopped sending them; anvil and this node send them). */
const reportedTotalDifficulties = new WeakMap<Block, bigint>();

/** The total difficulty the remote reported with `block`, if it did. */
export function reportedTotalDifficulty(block: Block): bigint | undefined {
  return reportedTotalDifficulties.get(block);
}

/** The uncle headers a remote block names (`uncles`: their hashes), asked of the remote; none for a block without, or from a remote that serves none. */
export async function remoteUncles(json: RemoteBlockJson, remote: { call<T>(method: string, params: unknown[]): Promise<T> }): Promise<unknown[]> {
  const hashes = Array.isArray(json.uncles) ? json.uncles : [];
  const fetched = Promise.all(
    hashes.map(async (hash, index) => {
      const uncle = await remote.call<{ hash?: unknown } | null>('eth_getUncleByBlockHashAndIndex', [json.hash, `0x${index.toString(16)}`]);
      if (uncle === null || typeof uncle !== 'object' || typeof uncle.hash !== 'string' || uncle.hash.toLowerCase() !== String(hash).toLowerCase()) {
        throw new RemoteError(`the fork's remote did not give uncle ${index} (${String(hash)}) of block ${BigInt(json.number)}: ${JSON.stringify(uncle)?.slice(0, 200)}`);
      }
      return uncle;
    }),
  );
  // A remote that serves no uncles: the block stands without them, as it did before they were asked for.
  return fetched.catch((error: unknown) => {
    if (error instanceof RemoteError && error.unserved) return [];
    throw error;
  });
}

/** A remote block as a Block, with its `uncles`' headers (remoteUncles); its hash must be the one the remote names, or the remote's shape is not understood. */
export function blockFromRemote(json: unknown, commonFor: (json: RemoteBlockJson) => Common, uncles: readonly unknown[] = []): Block {
  if (typeof json !== 'object' || json === null || !Array.isArray((json as RemoteBlockJson).transactions)) {
    throw new RemoteError(`the fork's remote answered a block request with no block: ${JSON.stringify(json)?.slice(0, 200)}`);
  }
  const remote = json as RemoteBlockJson;
  let block: Block;
  try {
    // Checked by its hash, not by consensus rules: the remote chain's may not be a PoS header's (BSC's or Arbitrum's difficulty).
    block = createBlockFromRPC(remote, [], { common: commonFor(remote), setHardfork: false, skipConsensusFormatValidation: true });
    if (uncles.length > 0) {
      // Each uncle under the fork its own fields name: an uncle may predate its block's fork.
      const headers = uncles.map((uncle) => createBlockHeaderFromRPC(uncle as RemoteBlockJson, { common: commonFor(uncle as RemoteBlockJson), setHardfork: false, skipConsensusFormatValidation: true }));
      block = new Block(block.header, block.transactions, headers, block.withdrawals, { common: block.common });
    }
  } catch (error) {
    throw new RemoteError(`the fork's remote sent block ${remote.number} in a shape this node cannot read: ${(error as Error).message}`);
  }
  if (bytesToHex(block.hash()) !== hexField(remote.hash, 'a block hash').toLowerCase()) {
    throw new RemoteError(`the fork's remote sent block ${BigInt(remote.number)} whose header hashes to ${bytesToHex(block.hash())}, not the ${remote.hash} it names`);
  }
  if (uncles.length > 0 && !block.uncleHashIsValid()) {
    throw new RemoteError(`the fork's remote sent uncles of block ${BigInt(remote.number)} that do not hash to its sha3Uncles ${remote.sha3Uncles}`);
  }
  keepReportedSize(block, remote.size === undefined || remote.size === null ? undefined : Number(BigInt(hexField(remote.size, 'a block size'))));
  if (typeof remote.totalDifficulty === 'string') reportedTotalDifficulties.set(block, BigInt(hexField(remote.totalDifficulty, 'a total difficulty')));
  return block;
}

/** A remote receipt as the node stores receipts. */
export function receiptFromRemote(json: RemoteReceiptJson): StoredReceipt {
  const optional = (value: PrefixedHexString | null | undefined, what: string) => (value === undefined || value === null ? undefined : hexField(value, what));
  const status = optional(json.status, 'a receipt status');
  const root = optional(json.root, 'a receipt root');
  const contract = optional(json.contractAddress, 'a contract address');
  const blobGas = optional(json.blobGasUsed, 'blob gas used');
  if (!Array.isArray(json.logs)) throw new RemoteError(`the fork's remote sent a receipt without logs`);
  return {
    status: status === undefined ? undefined : BigInt(status) === 1n ? 1 : 0,
    stateRoot: root === undefined || status !== undefined ? undefined : hexToBytes(root),
    cumulativeGasUsed: BigInt(hexField(json.cumulativeGasUsed, 'cumulative gas')),
    gasUsed: BigInt(hexField(json.gasUsed, 'gas used')),
    logs: json.logs.map((log) => [hexToBytes(hexField(log.address, 'a log address')), log.topics.map((topic) => hexToBytes(hexField(topic, 'a topic'))), hexToBytes(hexField(log.data, 'log data'))]),
    sender: hexToBytes(hexField(json.from, 'a sender')),
    contractAddress: contract === undefined ? undefined : hexToBytes(contract),
    blobGasUsed: blobGas === undefined ? undefined : BigInt(blobGas),
  };
}

const quantity = (value: PrefixedHexString, what: string) => `0x${BigInt(hexField(value, what)).toString(16)}` as PrefixedHexString;
const data = (value: PrefixedHexString, what: string) => hexField(value, what).toLowerCase() as PrefixedHexString;

/** A remote log in the contract's shape: quantities without leading zeros, data in lowercase; the block's timestamp when the remote gives it. */
export function logFromRemote(json: RemoteLogJson): Log {
  if (typeof json !== 'object' || json === null || !Array.isArray(json.topics)) throw new RemoteError(`the fork's remote sent a log that is no log: ${JSON.stringify(json)?.slice(0, 200)}`);
  return {
    address: data(json.address, 'a log address'),
    topics: json.topics.map((topic) => data(topic, 'a topic')),
    data: data(json.data, 'log data'),
    blockNumber: quantity(json.blockNumber, 'a block number'),
    blockHash: data(json.blockHash, 'a block hash'),
    ...(json.blockTimestamp === undefined ? {} : { blockTimestamp: quantity(json.blockTimestamp, 'a block timestamp') }),
    transactionHash: data(json.transactionHash, 'a transaction hash'),
    transactionIndex: quantity(json.transactionIndex, 'a transaction index'),
    logIndex: quantity(json.logIndex, 'a log index'),
    removed: false,
  };
}
