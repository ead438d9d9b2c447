import { invalidParams } from '../../rpc/errors.js';
import { setTimestampInterval } from '../timestamp-interval.js';
import type { Handlers, MethodServices } from '../services.js';

/** anvil_setBlockTimestampInterval's work, in Hardhat's milliseconds (whole seconds only: block timestamps are seconds). */
export function hardhat_setBlockTimestampInterval({ chain, clock }: Pick<MethodServices, 'chain' | 'clock'>): Handlers['hardhat_setBlockTimestampInterval'] {
  return async ([milliseconds]) => {
    const ms = BigInt(milliseconds);
    if (ms % 1000n !== 0n) throw invalidParams(`invalid argument 0 (milliseconds): ${ms} is not a whole number of seconds; block timestamps are seconds`);
    setTimestampInterval({ chain, clock }, ms / 1000n, 'milliseconds');
    return true;
  };
}
