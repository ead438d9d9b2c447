import { fullEntries, senderAnswer } from '../pool-answers.js';
import type { Handlers, MethodServices } from '../services.js';

export function txpool_contentFrom({ pool }: Pick<MethodServices, 'pool'>): Handlers['txpool_contentFrom'] {
  return async ([address]) => senderAnswer(await pool.contentFrom(address.toLowerCase()), fullEntries);
}
