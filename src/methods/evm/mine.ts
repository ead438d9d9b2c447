import { MAX_REQUESTED_TIMESTAMP } from '../../producer/block-clock.js';
import { invalidParams, serverError } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

export function evm_mine({ chain, miner, clock }: Pick<MethodServices, 'chain' | 'miner' | 'clock'>): Handlers['evm_mine'] {
  return async ([timestamp]) => {
    const requested = timestamp === undefined ? undefined : BigInt(timestamp);
    if (requested !== undefined && requested > MAX_REQUESTED_TIMESTAMP) {
      throw invalidParams(`invalid argument 0 (timestamp): ${requested} is past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
    }
    const head = chain.head().header.timestamp;
    const next = clock.timestampFor(chain.head().header, requested);
    if (next > MAX_REQUESTED_TIMESTAMP) {
      throw serverError(`the next block would carry timestamp ${next}, past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP}, the last second of the year 9999): the head carries ${head}`);
    }
    await miner.mine(requested);
    return '0x0';
  };
}
