import { Explorer } from '../../ots/explorer.js';
import type { Handlers, MethodServices } from '../services.js';

export function ots_getContractCreator({ chain, tracing }: Pick<MethodServices, 'chain' | 'tracing'>): Handlers['ots_getContractCreator'] {
  const explorer = new Explorer(chain, tracing);
  return ([address]) => explorer.contractCreator(address);
}
