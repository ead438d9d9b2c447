import type { FeeHistory } from '../../generated/types.js';
import type { FeeHistoryData } from '../fees/history.js';
import { toQuantity } from './quantity.js';

const quantities = (values: bigint[]) => values.map(toQuantity);

/** eth_feeHistory's answer: quantities as hex, ratios as JSON numbers, blob and reward members only when there are any. */
export function toRpcFeeHistory(data: FeeHistoryData): FeeHistory {
  return {
    oldestBlock: toQuantity(data.oldestBlock),
    baseFeePerGas: quantities(data.baseFeePerGas),
    gasUsedRatio: data.gasUsedRatio,
    ...(data.baseFeePerBlobGas !== undefined && { baseFeePerBlobGas: quantities(data.baseFeePerBlobGas), blobGasUsedRatio: data.blobGasUsedRatio }),
    ...(data.reward !== undefined && { reward: data.reward.map(quantities) }),
  };
}
