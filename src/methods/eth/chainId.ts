import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_chainId({ chain }: Pick<MethodServices, 'chain'>): Handlers['eth_chainId'] {
  return async () => toQuantity(chain.commons.base.chainId());
}
