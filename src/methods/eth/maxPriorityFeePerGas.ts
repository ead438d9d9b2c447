import { SUGGESTED_TIP } from '../../fees/fees.js';
import { toQuantity } from '../../format/quantity.js';
import type { Handlers } from '../services.js';

export function eth_maxPriorityFeePerGas(): Handlers['eth_maxPriorityFeePerGas'] {
  return async () => toQuantity(SUGGESTED_TIP);
}
