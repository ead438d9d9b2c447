import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_baseFee({ chain, nextBlock }: Pick<MethodServices, 'chain' | 'nextBlock'>): Handlers['eth_baseFee'] {
  return async () => (chain.nextCommon().isActivatedEIP(1559) ? toQuantity(nextBlock.baseFeeOn(chain.head().header, chain.nextCommon())) : null);
}
