import { contentAnswer } from '../pool-answers.js';
import type { Handlers, MethodServices } from '../services.js';

/** The pool's answer is kept while the pool holds the same transactions in the same places: a pool polled while nothing changes costs a copy. */
export function txpool_content({ pool, answers }: Pick<MethodServices, 'pool' | 'answers'>): Handlers['txpool_content'] {
  return async () => answers.answer('txpool_content', pool.version, '', () => contentAnswer(pool));
}
