import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_blockNumber({ chain }: Pick<MethodServices, 'chain'>): Handlers['eth_blockNumber'] {
  return async () => toQuantity(chain.head().header.number);
}
