import type { Handlers, MethodServices } from '../services.js';

export function net_version({ chain }: Pick<MethodServices, 'chain'>): Handlers['net_version'] {
  return async () => chain.commons.base.chainId().toString(10);
}
