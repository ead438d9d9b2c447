import type { Handlers, MethodServices } from '../services.js';

export function evm_setIntervalMining({ mining }: Pick<MethodServices, 'mining'>): Handlers['evm_setIntervalMining'] {
  return async ([ms]) => {
    mining.setInterval(Number(ms));
    return true;
  };
}
