import type { Handlers, MethodServices } from '../services.js';

export function eth_getLogs({ logQuery }: Pick<MethodServices, 'logQuery'>): Handlers['eth_getLogs'] {
  return async ([options]) => logQuery.getLogs(options);
}
