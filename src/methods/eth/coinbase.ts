import type { Handlers, MethodServices } from '../services.js';

export function eth_coinbase({ nextBlock }: Pick<MethodServices, 'nextBlock'>): Handlers['eth_coinbase'] {
  return async () => nextBlock.coinbase.toString();
}
