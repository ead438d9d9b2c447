import { Explorer } from '../../ots/explorer.js';
import type { Handlers, MethodServices } from '../services.js';

export function ots_getInternalOperations({ chain, tracing }: Pick<MethodServices, 'chain' | 'tracing'>): Handlers['ots_getInternalOperations'] {
  const explorer = new Explorer(chain, tracing);
  return ([hash]) => explorer.internalOperations(hash);
}
