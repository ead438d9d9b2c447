import type { FilterChanges } from '../../../generated/types.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getFilterChanges({ filters }: Pick<MethodServices, 'filters'>): Handlers['eth_getFilterChanges'] {
  return async ([id]) => (await filters.changes(id)) as FilterChanges;
}
