import { ownerOf } from '../ws-sessions.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_newBlockFilter({ filters }: Pick<MethodServices, 'filters'>): Handlers['eth_newBlockFilter'] {
  return async (_params, ctx) => filters.newBlockFilter(ownerOf(ctx));
}
