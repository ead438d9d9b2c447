// eth_getLogs and the log scans behind filters: resolve a block range, walk it through the
// canonical index, skip every block whose logs bloom rules the criteria out, and read receipts
// only for the rest.
import type { Block } from '@ethereumjs/block';
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { FilterOptions, Log } from '../../generated/types.js';
import type { Chain } from '../chain/chain.js';
import type { RawLog } from '../chain/receipts.js';
import { toRpcLog, type LogPosition } from '../format/log.js';
import { toQuantity } from '../format/quantity.js';
import { invalidCriteria, limitExceeded, unknownBlock } from './errors.js';
import { bloomMayMatch, matchesLog, parseCriteria, type LogCriteria } from './criteria.js';

export interface LogLimits {
  /** most blocks one eth_getLogs may span */
  maxBlocks: number;
  /** most logs one eth_getLogs may answer */
  maxResults: number;
}

export interface ScanResult {
  logs: Log[];
  /** the last block whose matching logs are all in `logs` */
  through: bigint;
  /** set when the scan stopped because this block's logs would pass the result limit */
  overflowAt?: bigint;
}

/** The heights the block tags name at one moment: read once per query, so a block landing meanwhile changes nothing. */
export interface TagHeights {
  head: bigint;
  safe: bigint;
  finalized: bigint;
}

export const tagHeights = (chain: Pick<Chain, 'head' | 'safe' | 'finalized'>): TagHeights => ({
  head: chain.head().header.number,
  safe: chain.safe().header.number,
  finalized: chain.finalized().header.number,
});

/** A block parameter as a number: `pending` is the head, as there are no pending logs. */
export function blockNumberOf(ref: string | undefined, heights: TagHeights): bigint {
  switch (ref) {
    case undefined:
    case 'latest':
    case 'pending':
      return heights.head;
    case 'safe':
      return heights.safe;
    case 'finalized':
      return heights.finalized;
    case 'earliest':
      return 0n;
    default:
      return BigInt(ref);
  }
}

/** True when `ref` names a fixed block number rather than a moving tag. */
export const isExplicitNumber = (ref: string | undefined): ref is string => ref !== undefined && ref.startsWith('0x');

/** Refuses what geth refuses in a filter object before any block is read. */
export function checkFilterOptions(options: FilterOptions): LogCriteria {
  if (options.blockHash !== undefined && (options.fromBlock !== undefined || options.toBlock !== undefined)) {
    throw invalidCriteria('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
  }
  if (isExplicitNumber(options.fromBlock) && isExplicitNumber(options.toBlock) && BigInt(options.fromBlock) > BigInt(options.toBlock)) {
    throw invalidCriteria('invalid block range params');
  }
  return parseCriteria(options);
}

export class LogQuery {
  constructor(
    private readonly chain: Chain,
    readonly limits: LogLimits,
  ) {}

  /** eth_getLogs (and eth_getFilterLogs): every matching log of the range or block, in chain order, within the limits. */
  async getLogs(options: FilterOptions): Promise<Log[]> {
    const criteria = checkFilterOptions(options);
    if (options.blockHash !== undefined) {
      const block = await this.chain.blockByHash(hexToBytes(options.blockHash as PrefixedHexString));
      if (block === undefined) throw unknownBlock();
      const logs = await this.blockLogs(block, criteria);
      // One block by hash within the same result limit as a range of blocks.
      if (logs.length > this.limits.maxResults) throw tooManyResults(this.limits.maxResults, block.header.number, block.header.number);
      return logs;
    }
    const heights = tagHeights(this.chain);
    const { fromBlock, toBlock } = options;
    if (isExplicitNumber(toBlock) && BigInt(toBlock) > heights.head) throw invalidCriteria('block range extends beyond current head block');
    const from = blockNumberOf(fromBlock, heights);
    const to = blockNumberOf(toBlock, heights);
    if (from > to) throw invalidCriteria('invalid block range params');
    const { maxBlocks, maxResults } = this.limits;
    if (to - from + 1n > BigInt(maxBlocks)) {
      const suggestion = { fromBlock: toQuantity(from), toBlock: toQuantity(from + BigInt(maxBlocks) - 1n) };
      throw limitExceeded(
        `query exceeds max block range ${maxBlocks}: ask for at most ${maxBlocks} blocks at a time, e.g. fromBlock ${suggestion.fromBlock} toBlock ${suggestion.toBlock}`,
        { limit: maxBlocks, ...suggestion },
      );
    }
    const result = await this.scan(criteria, from, to, maxResults);
    if (result.overflowAt !== undefined) throw tooManyResults(maxResults, from, result.overflowAt);
    return result.logs;
  }

  /**
   * The matching logs of blocks `from`..`to` (clamped to what exists), stopping before the block
   * that would take the count past `maxResults`.
   */
  async scan(criteria: LogCriteria, from: bigint, to: bigint, maxResults: number): Promise<ScanResult> {
    const fork = this.chain.fork;
    if (fork === undefined || from > fork.base.header.number) return this.scanChain(criteria, from, to, maxResults);
    // A fork's blocks up to the fork block are the remote's: their logs come from it, the rest from the chain.
    const base = fork.base.header.number;
    const remote = await fork.history.logs(criteria, from, to < base ? to : base);
    if (remote.length > maxResults) {
      const overflowAt = BigInt(remote[maxResults].blockNumber);
      return { logs: remote.filter((log) => BigInt(log.blockNumber) < overflowAt), through: overflowAt - 1n, overflowAt };
    }
    if (to <= base) return { logs: remote, through: to };
    const local = await this.scanChain(criteria, base + 1n, to, maxResults - remote.length);
    return { ...local, logs: [...remote, ...local.logs] };
  }

  private async scanChain(criteria: LogCriteria, from: bigint, to: bigint, maxResults: number): Promise<ScanResult> {
    if (criteria.addresses !== null) return this.scanByAddress(criteria, from, to, maxResults);
    const logs: Log[] = [];
    let through = from - 1n;
    for await (const [number, hash] of this.chain.blocks.canonicalHashes(from, to)) {
      const bloom = await this.chain.blocks.logsBloom(hash);
      if (bloom === undefined || bloomMayMatch(criteria, bloom)) {
        const found = await this.canonicalBlockLogs(hash, criteria);
        if (logs.length + found.length > maxResults) return { logs, through, overflowAt: number };
        for (const log of found) logs.push(log);
      }
      through = number;
    }
    return { logs, through };
  }

  /**
   * {@link scan} for criteria naming emitters: the log address index names the blocks holding
   * their logs, so the cost follows the matches, not the length of the range.
   */
  private async scanByAddress(criteria: LogCriteria, from: bigint, to: bigint, maxResults: number): Promise<ScanResult> {
    const end = to < this.chain.head().header.number ? to : this.chain.head().header.number;
    const addresses = [...criteria.addresses!].map((hex) => hexToBytes(hex as PrefixedHexString));
    const logs: Log[] = [];
    for (const number of await this.chain.blocks.logBlockNumbers(addresses, from, end)) {
      const hash = await this.chain.blocks.canonicalHash(number);
      const found = hash === undefined ? [] : await this.canonicalBlockLogs(hash, criteria);
      if (logs.length + found.length > maxResults) return { logs, through: number - 1n, overflowAt: number };
      for (const log of found) logs.push(log);
    }
    return { logs, through: end < from ? from - 1n : end };
  }

  private async canonicalBlockLogs(hash: Uint8Array, criteria: LogCriteria): Promise<Log[]> {
    const block = await this.chain.blockByHash(hash);
    return block === undefined ? [] : this.blockLogs(block, criteria);
  }

  /** The logs of one block that match, each with its position in the block. */
  async blockLogs(block: Block, criteria: LogCriteria): Promise<Log[]> {
    if (!bloomMayMatch(criteria, block.header.logsBloom)) return [];
    return selectLogs(await this.positionedLogs(block), criteria);
  }

  /** Every log of a block with its position, unformatted: one read of its records that several criteria can share. */
  async positionedLogs(block: Block): Promise<PositionedLog[]> {
    const records = (await this.chain.blocks.completeRecords(block)) ?? [];
    const logs: PositionedLog[] = [];
    for (const [txIndex, { receipt, blockHash, blockNumber, blockTimestamp, firstLogIndex }] of records.entries()) {
      const txHash = block.transactions[txIndex].hash();
      let logIndex = firstLogIndex;
      for (const raw of receipt.logs) logs.push([raw, { blockHash, blockNumber, blockTimestamp, txHash, txIndex, logIndex: logIndex++ }]);
    }
    return logs;
  }
}

export type PositionedLog = [RawLog, LogPosition];

/** The matching ones among a block's logs, formatted. */
export function selectLogs(logs: readonly PositionedLog[], criteria: LogCriteria): Log[] {
  const selected: Log[] = [];
  for (const [raw, at] of logs) if (matchesLog(criteria, raw)) selected.push(toRpcLog(raw, at));
  return selected;
}

function tooManyResults(maxResults: number, from: bigint, overflowAt: bigint) {
  if (overflowAt === from) {
    return limitExceeded(`block ${toQuantity(from)} alone holds more than ${maxResults} matching logs: narrow the query by address or topics`, {
      limit: maxResults,
    });
  }
  const suggestion = { fromBlock: toQuantity(from), toBlock: toQuantity(overflowAt - 1n) };
  return limitExceeded(
    `query returned more than ${maxResults} results: retry with fromBlock ${suggestion.fromBlock} toBlock ${suggestion.toBlock}, then continue from ${toQuantity(overflowAt)}, or narrow address and topics`,
    { limit: maxResults, ...suggestion },
  );
}
