import type { Handlers, MethodServices } from '../services.js';

export function anvil_getAutomine({ mining }: Pick<MethodServices, 'mining'>): Handlers['anvil_getAutomine'] {
  return async () => mining.isAutomine;
}
