import type { Handlers, MethodServices } from '../services.js';

export function evm_setAutomine({ mining }: Pick<MethodServices, 'mining'>): Handlers['evm_setAutomine'] {
  return async ([on]) => {
    mining.setAutomine(on);
    return true;
  };
}
