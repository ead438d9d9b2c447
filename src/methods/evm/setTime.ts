import { MAX_REQUESTED_TIMESTAMP } from '../../producer/block-clock.js';
import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

export function evm_setTime({ clock }: Pick<MethodServices, 'clock'>): Handlers['evm_setTime'] {
  // As anvil answers: how far the clock moved, in seconds (negative when it went back).
  return async ([timestamp]) => {
    const wanted = BigInt(timestamp);
    if (wanted > MAX_REQUESTED_TIMESTAMP) throw invalidParams(`invalid argument 0 (timestamp): ${wanted} is past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
    const moved = wanted - clock.now();
    clock.increase(moved);
    return Number(moved);
  };
}
