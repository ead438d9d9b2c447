import { Explorer } from '../../ots/explorer.js';
import type { Handlers, MethodServices } from '../services.js';

export function ots_getTransactionBySenderAndNonce({ chain, tracing }: Pick<MethodServices, 'chain' | 'tracing'>): Handlers['ots_getTransactionBySenderAndNonce'] {
  const explorer = new Explorer(chain, tracing);
  return ([sender, nonce]) => explorer.transactionBySenderAndNonce(sender, BigInt(nonce));
}
