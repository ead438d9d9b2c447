import { MAX_REQUESTED_TIMESTAMP } from '../../producer/block-clock.js';
import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

export function evm_increaseTime({ clock }: Pick<MethodServices, 'clock'>): Handlers['evm_increaseTime'] {
  return async ([seconds]) => {
    const added = BigInt(seconds);
    if (clock.now() + added > MAX_REQUESTED_TIMESTAMP) {
      throw invalidParams(`invalid argument 0 (seconds): the clock would read ${clock.now() + added}, past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
    }
    return clock.increase(added).toString();
  };
}
