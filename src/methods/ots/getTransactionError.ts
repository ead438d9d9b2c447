import { Explorer } from '../../ots/explorer.js';
import type { Handlers, MethodServices } from '../services.js';

export function ots_getTransactionError({ chain, tracing }: Pick<MethodServices, 'chain' | 'tracing'>): Handlers['ots_getTransactionError'] {
  const explorer = new Explorer(chain, tracing);
  return ([hash]) => explorer.transactionError(hash);
}
