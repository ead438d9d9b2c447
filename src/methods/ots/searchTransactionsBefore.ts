import { Explorer } from '../../ots/explorer.js';
import type { Handlers, MethodServices } from '../services.js';

export function ots_searchTransactionsBefore({ chain, tracing }: Pick<MethodServices, 'chain' | 'tracing'>): Handlers['ots_searchTransactionsBefore'] {
  const explorer = new Explorer(chain, tracing);
  return ([address, number, size]) => explorer.search(address, BigInt(number), size, 'before');
}
