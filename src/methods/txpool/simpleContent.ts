import type { PoolSimpleContent } from '../../../generated/types.js';
import { poolCounters, senderAnswer, simpleEntries } from '../pool-answers.js';
import type { Handlers, MethodServices } from '../services.js';

export function txpool_simpleContent({ pool }: Pick<MethodServices, 'pool'>): Handlers['txpool_simpleContent'] {
  return async () => {
    const { pending, queued } = pool.content();
    const simpleAccountContent: PoolSimpleContent['simpleAccountContent'] = {};
    for (const sender of new Set([...pending.keys(), ...queued.keys()])) simpleAccountContent[sender] = senderAnswer(await pool.contentFrom(sender), simpleEntries);
    return { simpleAccountContent, ...poolCounters(pool) };
  };
}
