import type { Handlers, MethodServices } from '../services.js';

export function eth_getFilterLogs({ filters }: Pick<MethodServices, 'filters'>): Handlers['eth_getFilterLogs'] {
  return async ([id]) => filters.logs(id);
}
