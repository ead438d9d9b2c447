// eth_feeHistory over a chain: base fees, gas-used ratios, blob fees and reward percentiles of a
// run of blocks ending at the newest asked for.
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { baseFeeAfter, effectiveTip } from './fees.js';

/** The most blocks one eth_feeHistory may span, as geth's default. */
export const MAX_FEE_HISTORY_BLOCKS = 1024n;

/** eth_feeHistory's figures, before formatting. */
export interface FeeHistoryData {
  oldestBlock: bigint;
  /** one per block, plus the base fee of the block after the last */
  baseFeePerGas: bigint[];
  gasUsedRatio: number[];
  /** from Cancun on; like baseFeePerGas, one more than there are blocks */
  baseFeePerBlobGas?: bigint[];
  blobGasUsedRatio?: number[];
  /** per block, the tip at each requested percentile */
  reward?: bigint[][];
}

/** What the fee history reads of a chain: its blocks, and the gas each transaction of a block used. */
export interface FeeHistorySource {
  blockByNumber(number: bigint): Promise<Block | undefined>;
  receipts(blockHash: Uint8Array): Promise<readonly { gasUsed: bigint }[] | undefined>;
  commonAt(header: { number: bigint; timestamp: bigint }): Common;
}

/** geth's reward percentiles: tips sorted ascending, each picked where cumulative gas crosses the percentile of gasUsed. */
async function rewards(source: FeeHistorySource, block: Block, percentiles: number[]): Promise<bigint[]> {
  if (block.transactions.length === 0) return percentiles.map(() => 0n);
  const receipts = (await source.receipts(block.hash())) ?? [];
  const baseFee = block.header.baseFeePerGas ?? 0n;
  const sorted = block.transactions
    .map((tx, i) => ({ tip: effectiveTip(tx, baseFee), gas: receipts[i]?.gasUsed ?? 0n }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  return percentiles.map((p) => {
    const threshold = (Number(block.header.gasUsed) * p) / 100;
    let cumulative = 0;
    for (const entry of sorted) {
      cumulative += Number(entry.gas);
      if (cumulative >= threshold) return entry.tip;
    }
    return sorted[sorted.length - 1].tip;
  });
}

/**
 * How many blocks (and their receipts) are read at once: on a fork, blocks below the fork block
 * come from the remote, and blocks read together go out in one batch rather than a round trip
 * each (200 blocks: 1.2 s one by one against a remote on this machine); fewer than all 1,024 at
 * once, so that many whole blocks of a busy chain are not held together.
 */
const BLOCKS_AT_ONCE = 64n;

/** The fee history of the `count` blocks ending at `last`, plus the base fees of the block after it. */
export async function feeHistory(source: FeeHistorySource, count: bigint, last: Block, percentiles: number[] = []): Promise<FeeHistoryData> {
  const oldest = last.header.number + 1n > count ? last.header.number + 1n - count : 0n;
  const baseFees: bigint[] = [];
  const ratios: number[] = [];
  const blobFees: bigint[] = [];
  const blobRatios: number[] = [];
  const reward: bigint[][] = [];
  for (let from = oldest; from <= last.header.number; from += BLOCKS_AT_ONCE) {
    const numbers: bigint[] = [];
    for (let n = from; n < from + BLOCKS_AT_ONCE && n <= last.header.number; n++) numbers.push(n);
    const blocks = await Promise.all(numbers.map(async (n) => (n === last.header.number ? last : (await source.blockByNumber(n))!)));
    if (percentiles.length > 0) reward.push(...(await Promise.all(blocks.map((block) => rewards(source, block, percentiles)))));
    for (const block of blocks) {
      const common = source.commonAt(block.header);
      baseFees.push(block.header.baseFeePerGas ?? 0n);
      ratios.push(Number(block.header.gasUsed) / Number(block.header.gasLimit));
      if (common.isActivatedEIP(4844)) {
        blobFees.push(block.header.getBlobGasPrice());
        blobRatios.push(Number(block.header.blobGasUsed ?? 0n) / Number(common.param('maxBlobGasPerBlock') ?? 1n));
      }
    }
  }
  const lastCommon = source.commonAt(last.header);
  baseFees.push(baseFeeAfter(last.header, lastCommon));
  // The header's own Common carries the block params (minBlobGas…); the chain's fork Commons do not.
  if (lastCommon.isActivatedEIP(4844)) blobFees.push(last.header.calcNextBlobGasPrice(last.header.common));
  return {
    oldestBlock: oldest,
    baseFeePerGas: baseFees,
    gasUsedRatio: ratios,
    ...(blobFees.length > 0 ? { baseFeePerBlobGas: blobFees, blobGasUsedRatio: blobRatios } : {}),
    ...(percentiles.length > 0 ? { reward } : {}),
  };
}
