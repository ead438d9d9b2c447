import { setTimestampInterval } from '../timestamp-interval.js';
import type { Handlers, MethodServices } from '../services.js';

export function anvil_setBlockTimestampInterval({ chain, clock }: Pick<MethodServices, 'chain' | 'clock'>): Handlers['anvil_setBlockTimestampInterval'] {
  return async ([seconds]) => {
    setTimestampInterval({ chain, clock }, BigInt(seconds), 'seconds');
    return null;
  };
}
