import type { Block } from '@ethereumjs/block';
import { Capability, type TypedTransaction } from '@ethereumjs/tx';
import type { RpcMethods } from '../../../generated/methods.js';
import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import type { Chain } from '../../chain/chain.js';
import { toQuantity } from '../../format/quantity.js';
import { invalidParams } from '../../rpc/errors.js';
import type { Services } from '../services.js';

/** The tip a dev node suggests, as anvil and Hardhat do: enough for any block, cheap for tests. */
export const SUGGESTED_TIP = 1_000_000_000n;
const MAX_FEE_HISTORY_BLOCKS = 1024n;

type Deps = Pick<Services, 'chain' | 'pendingBlock'>;

export function nextBaseFee(chain: Chain): bigint {
  const head = chain.head();
  const common = chain.commons.at({ number: head.header.number + 1n, timestamp: head.header.timestamp + 1n });
  return common.isActivatedEIP(1559) ? head.header.calcNextBaseFee() : 0n;
}

function tipOf(tx: TypedTransaction, baseFee: bigint): bigint {
  if (!tx.supports(Capability.EIP1559FeeMarket)) return (tx as { gasPrice: bigint }).gasPrice - baseFee;
  const { maxFeePerGas, maxPriorityFeePerGas } = tx as { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  return maxFeePerGas - baseFee < maxPriorityFeePerGas ? maxFeePerGas - baseFee : maxPriorityFeePerGas;
}

/** geth's reward percentiles: tips sorted ascending, each picked where cumulative gas crosses the percentile of gasUsed. */
async function rewards(chain: Chain, block: Block, percentiles: number[]): Promise<string[]> {
  if (block.transactions.length === 0) return percentiles.map(() => '0x0');
  const receipts = (await chain.blocks.receipts(block.hash())) ?? [];
  const baseFee = block.header.baseFeePerGas ?? 0n;
  const sorted = block.transactions
    .map((tx, i) => ({ tip: tipOf(tx, baseFee), gas: receipts[i]?.gasUsed ?? 0n }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  return percentiles.map((p) => {
    const threshold = (Number(block.header.gasUsed) * p) / 100;
    let cumulative = 0;
    for (const entry of sorted) {
      cumulative += Number(entry.gas);
      if (cumulative >= threshold) return toQuantity(entry.tip);
    }
    return toQuantity(sorted[sorted.length - 1].tip);
  });
}

export function feeMethods({ chain, pendingBlock }: Deps): Pick<
  RpcMethods,
  'eth_gasPrice' | 'eth_maxPriorityFeePerGas' | 'eth_feeHistory' | 'eth_blobBaseFee'
> {
  return {
    eth_gasPrice: async () => toQuantity(nextBaseFee(chain) + SUGGESTED_TIP),
    eth_maxPriorityFeePerGas: async () => toQuantity(SUGGESTED_TIP),
    eth_blobBaseFee: async () => {
      const head = chain.head();
      const common = chain.commons.at(head.header);
      if (!common.isActivatedEIP(4844)) return toQuantity(0n);
      // The header's own Common carries the block params (minBlobGas…); the chain's fork Commons do not.
      return toQuantity(head.header.calcNextBlobGasPrice(head.header.common));
    },
    eth_feeHistory: async ([blockCount, newest, percentiles]) => {
      const count = BigInt(blockCount);
      if (count < 1n || count > MAX_FEE_HISTORY_BLOCKS) throw invalidParams(`blockCount must be between 1 and ${MAX_FEE_HISTORY_BLOCKS}`);
      for (let i = 0; i < (percentiles ?? []).length; i++) {
        const p = percentiles![i];
        if (p < 0 || p > 100 || (i > 0 && p < percentiles![i - 1])) throw invalidParams('rewardPercentiles must be ascending values between 0 and 100');
      }
      const last = await requireBlock(chain, newest as BlockRef, pendingBlock);
      const oldest = last.header.number + 1n > count ? last.header.number + 1n - count : 0n;
      const baseFees: string[] = [];
      const ratios: number[] = [];
      const blobFees: string[] = [];
      const blobRatios: number[] = [];
      const reward: string[][] = [];
      for (let n = oldest; n <= last.header.number; n++) {
        const block = n === last.header.number ? last : (await chain.blockByNumber(n))!;
        const common = chain.commons.at(block.header);
        baseFees.push(toQuantity(block.header.baseFeePerGas ?? 0n));
        ratios.push(Number(block.header.gasUsed) / Number(block.header.gasLimit));
        if (common.isActivatedEIP(4844)) {
          blobFees.push(toQuantity(block.header.getBlobGasPrice()));
          blobRatios.push(Number(block.header.blobGasUsed ?? 0n) / Number(common.param('maxBlobGasPerBlock') ?? 1n));
        }
        if (percentiles !== undefined && percentiles.length > 0) reward.push(await rewards(chain, block, percentiles));
      }
      const lastCommon = chain.commons.at(last.header);
      baseFees.push(toQuantity(lastCommon.isActivatedEIP(1559) ? last.header.calcNextBaseFee() : 0n));
      if (lastCommon.isActivatedEIP(4844)) {
        blobFees.push(toQuantity(last.header.calcNextBlobGasPrice(last.header.common)));
      }
      return {
        oldestBlock: toQuantity(oldest),
        baseFeePerGas: baseFees,
        gasUsedRatio: ratios,
        ...(blobFees.length > 0 ? { baseFeePerBlobGas: blobFees, blobGasUsedRatio: blobRatios } : {}),
        ...(percentiles !== undefined && percentiles.length > 0 ? { reward } : {}),
      };
    },
  };
}
