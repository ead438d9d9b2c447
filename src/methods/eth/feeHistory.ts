import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { feeHistory, MAX_FEE_HISTORY_BLOCKS } from '../../fees/history.js';
import { toRpcFeeHistory } from '../../format/fee-history.js';
import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_feeHistory({ chain, pendingBlock }: Pick<MethodServices, 'chain' | 'pendingBlock'>): Handlers['eth_feeHistory'] {
  const history = {
    blockByNumber: (number: bigint) => chain.blockByNumber(number),
    receipts: (hash: Uint8Array) => chain.blocks.receipts(hash),
    commonAt: (header: { number: bigint; timestamp: bigint }) => chain.commons.at(header),
  };
  return async ([blockCount, newest, percentiles = []]) => {
    const count = BigInt(blockCount);
    if (count < 1n || count > MAX_FEE_HISTORY_BLOCKS) throw invalidParams(`blockCount must be between 1 and ${MAX_FEE_HISTORY_BLOCKS}`);
    for (let i = 0; i < percentiles.length; i++) {
      const p = percentiles[i];
      if (p < 0 || p > 100 || (i > 0 && p < percentiles[i - 1])) throw invalidParams('rewardPercentiles must be ascending values between 0 and 100');
    }
    return toRpcFeeHistory(await feeHistory(history, count, await requireBlock(chain, newest as BlockRef, pendingBlock), percentiles));
  };
}
