import { MAX_REQUESTED_TIMESTAMP } from '../producer/block-clock.js';
import { invalidParams } from '../rpc/errors.js';
import type { Services } from './services.js';

/**
 * A fixed interval of `seconds` between block timestamps (anvil's and Hardhat's setBlockTimestampInterval),
 * refused when the next block's timestamp would pass the latest a block may carry; `param` names it as the caller gave it.
 */
export function setTimestampInterval({ chain, clock }: Pick<Services, 'chain' | 'clock'>, seconds: bigint, param: string): void {
  const next = chain.head().header.timestamp + seconds;
  if (next > MAX_REQUESTED_TIMESTAMP) throw invalidParams(`invalid argument 0 (${param}): the next block would carry timestamp ${next}, past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
  clock.setInterval(seconds);
}
