import type { Handlers, MethodServices } from '../services.js';

export function eth_uninstallFilter({ filters }: Pick<MethodServices, 'filters'>): Handlers['eth_uninstallFilter'] {
  return async ([id]) => filters.uninstall(id);
}
