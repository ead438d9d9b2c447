import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

export function txpool_status({ pool }: Pick<MethodServices, 'pool'>): Handlers['txpool_status'] {
  return async () => {
    const size = pool.size();
    return { pending: toQuantity(size.pending), queued: toQuantity(size.queued) };
  };
}
