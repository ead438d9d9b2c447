import { draftOf } from '../transaction-requests.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_sendUnsignedTransaction({ chain, pool, executor, nextBlock, submission }: Pick<MethodServices, 'chain' | 'pool' | 'executor' | 'nextBlock' | 'submission'>): Handlers['eth_sendUnsignedTransaction'] {
  return async ([request]) => {
    const draft = await draftOf({ chain, pool, executor, nextBlock }, request);
    return submission.sendFrom(draft.from, draft.nonce, (nonce) => draft.make(nonce, { impersonated: true }));
  };
}
