import { ownerOf } from '../ws-sessions.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_newPendingTransactionFilter({ filters }: Pick<MethodServices, 'filters'>): Handlers['eth_newPendingTransactionFilter'] {
  return async (_params, ctx) => filters.newPendingTransactionFilter(ownerOf(ctx));
}
