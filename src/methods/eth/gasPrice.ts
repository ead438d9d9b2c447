import { SUGGESTED_TIP } from '../../fees/fees.js';
import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_gasPrice({ chain, nextBlock, pool }: Pick<MethodServices, 'chain' | 'nextBlock' | 'pool'>): Handlers['eth_gasPrice'] {
  return async () => {
    const suggested = nextBlock.baseFeeOn(chain.head().header, chain.nextCommon()) + SUGGESTED_TIP;
    // Without EIP-1559 a price the pool accepts: at least its floor (--gas-price, anvil_setMinGasPrice).
    return toQuantity(suggested > pool.minGasPrice ? suggested : pool.minGasPrice);
  };
}
