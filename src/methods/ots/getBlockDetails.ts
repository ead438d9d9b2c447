import { Explorer } from '../../ots/explorer.js';
import type { Handlers, MethodServices } from '../services.js';

export function ots_getBlockDetails({ chain, tracing }: Pick<MethodServices, 'chain' | 'tracing'>): Handlers['ots_getBlockDetails'] {
  const explorer = new Explorer(chain, tracing);
  return ([number]) => explorer.blockDetails(BigInt(number));
}
