import type { Handlers, MethodServices } from '../services.js';

export function rpc_discover({ contract }: Pick<MethodServices, 'contract'>): Handlers['rpc.discover'] {
  return async () => contract();
}
