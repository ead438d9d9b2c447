import { Explorer } from '../../ots/explorer.js';
import type { Handlers, MethodServices } from '../services.js';

export function ots_traceTransaction({ chain, tracing }: Pick<MethodServices, 'chain' | 'tracing'>): Handlers['ots_traceTransaction'] {
  const explorer = new Explorer(chain, tracing);
  return ([hash]) => explorer.traceEntries(hash);
}
