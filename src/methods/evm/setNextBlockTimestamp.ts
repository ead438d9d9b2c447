import { MAX_REQUESTED_TIMESTAMP } from '../../producer/block-clock.js';
import { invalidParams, serverError } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

export function evm_setNextBlockTimestamp({ chain, clock }: Pick<MethodServices, 'chain' | 'clock'>): Handlers['evm_setNextBlockTimestamp'] {
  return async ([timestamp]) => {
    const wanted = BigInt(timestamp);
    if (wanted > MAX_REQUESTED_TIMESTAMP) throw invalidParams(`invalid argument 0 (timestamp): ${wanted} is past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
    const head = chain.head().header.timestamp;
    if (wanted <= head) throw serverError(`timestamp must be greater than the parent block timestamp: ${wanted} is not after the head's ${head}`);
    clock.setNext(wanted);
    return wanted.toString();
  };
}
