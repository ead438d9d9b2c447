import { ownerOf } from '../ws-sessions.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_newFilter({ filters }: Pick<MethodServices, 'filters'>): Handlers['eth_newFilter'] {
  return async ([options], ctx) => filters.newLogFilter(options, ownerOf(ctx));
}
