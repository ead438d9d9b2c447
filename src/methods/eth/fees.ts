import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { SUGGESTED_TIP } from '../../fees/fees.js';
import { feeHistory, MAX_FEE_HISTORY_BLOCKS } from '../../fees/history.js';
import { toRpcFeeHistory } from '../../format/fee-history.js';
import { toQuantity } from '../../format/quantity.js';
import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'pendingBlock' | 'nextBlock' | 'pool'>;

export function feeMethods({ chain, pendingBlock, nextBlock, pool }: Deps): Pick<
  Handlers,
  'eth_gasPrice' | 'eth_maxPriorityFeePerGas' | 'eth_feeHistory' | 'eth_blobBaseFee' | 'eth_baseFee'
> {
  const history = {
    blockByNumber: (number: bigint) => chain.blockByNumber(number),
    receipts: (hash: Uint8Array) => chain.blocks.receipts(hash),
    commonAt: (header: { number: bigint; timestamp: bigint }) => chain.commons.at(header),
  };
  return {
    eth_gasPrice: async () => {
      const suggested = nextBlock.baseFeeOn(chain.head().header, chain.nextCommon()) + SUGGESTED_TIP;
      // Without EIP-1559 a price the pool accepts: at least its floor (--gas-price, anvil_setMinGasPrice).
      return toQuantity(suggested > pool.minGasPrice ? suggested : pool.minGasPrice);
    },
    eth_maxPriorityFeePerGas: async () => toQuantity(SUGGESTED_TIP),
    eth_baseFee: async () => (chain.nextCommon().isActivatedEIP(1559) ? toQuantity(nextBlock.baseFeeOn(chain.head().header, chain.nextCommon())) : null),
    eth_blobBaseFee: async () => {
      const head = chain.head();
      if (!chain.commons.at(head.header).isActivatedEIP(4844)) return toQuantity(0n);
      // The header's own Common carries the block params (minBlobGas…); the chain's fork Commons do not.
      return toQuantity(head.header.calcNextBlobGasPrice(head.header.common));
    },
    eth_feeHistory: async ([blockCount, newest, percentiles = []]) => {
      const count = BigInt(blockCount);
      if (count < 1n || count > MAX_FEE_HISTORY_BLOCKS) throw invalidParams(`blockCount must be between 1 and ${MAX_FEE_HISTORY_BLOCKS}`);
      for (let i = 0; i < percentiles.length; i++) {
        const p = percentiles[i];
        if (p < 0 || p > 100 || (i > 0 && p < percentiles[i - 1])) throw invalidParams('rewardPercentiles must be ascending values between 0 and 100');
      }
      return toRpcFeeHistory(await feeHistory(history, count, await requireBlock(chain, newest as BlockRef, pendingBlock), percentiles));
    },
  };
}
