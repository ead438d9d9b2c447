import type { Handlers, MethodServices } from '../services.js';

export function eth_syncing({ sync }: Pick<MethodServices, 'sync'>): Handlers['eth_syncing'] {
  return async () => sync.status();
}
