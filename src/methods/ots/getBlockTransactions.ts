import { Explorer } from '../../ots/explorer.js';
import type { Handlers, MethodServices } from '../services.js';

export function ots_getBlockTransactions({ chain, tracing }: Pick<MethodServices, 'chain' | 'tracing'>): Handlers['ots_getBlockTransactions'] {
  const explorer = new Explorer(chain, tracing);
  return ([number, page, size]) => explorer.blockTransactions(BigInt(number), page, size);
}
