import { inspectAnswer } from '../pool-answers.js';
import type { Handlers, MethodServices } from '../services.js';

export function txpool_inspect({ pool, answers }: Pick<MethodServices, 'pool' | 'answers'>): Handlers['txpool_inspect'] {
  return async () => answers.answer('txpool_inspect', pool.version, '', () => inspectAnswer(pool));
}
