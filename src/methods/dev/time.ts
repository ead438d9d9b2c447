import { MAX_REQUESTED_TIMESTAMP } from '../../producer/block-clock.js';
import { invalidParams, serverError } from '../../rpc/errors.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'clock'>;

/** The block clock: evm_increaseTime, evm_setNextBlockTimestamp and the fixed timestamp interval. */
export function timeMethods({ chain, clock }: Deps): Pick<
  Handlers,
  | 'evm_increaseTime'
  | 'evm_setNextBlockTimestamp'
  | 'anvil_setBlockTimestampInterval'
  | 'hardhat_setBlockTimestampInterval'
  | 'anvil_removeBlockTimestampInterval'
  | 'hardhat_removeBlockTimestampInterval'
  | 'evm_setTime'
> {
  /** Refuses an interval after which the next block's timestamp would pass the latest a block may carry. */
  const setInterval = (seconds: bigint, param: string): void => {
    const next = chain.head().header.timestamp + seconds;
    if (next > MAX_REQUESTED_TIMESTAMP) throw invalidParams(`invalid argument 0 (${param}): the next block would carry timestamp ${next}, past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
    clock.setInterval(seconds);
  };
  return {
    // As anvil answers: how far the clock moved, in seconds (negative when it went back).
    evm_setTime: async ([timestamp]) => {
      const wanted = BigInt(timestamp);
      if (wanted > MAX_REQUESTED_TIMESTAMP) throw invalidParams(`invalid argument 0 (timestamp): ${wanted} is past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
      const moved = wanted - clock.now();
      clock.increase(moved);
      return Number(moved);
    },
    evm_increaseTime: async ([seconds]) => {
      const added = BigInt(seconds);
      if (clock.now() + added > MAX_REQUESTED_TIMESTAMP) {
        throw invalidParams(`invalid argument 0 (seconds): the clock would read ${clock.now() + added}, past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
      }
      return clock.increase(added).toString();
    },
    evm_setNextBlockTimestamp: async ([timestamp]) => {
      const wanted = BigInt(timestamp);
      if (wanted > MAX_REQUESTED_TIMESTAMP) throw invalidParams(`invalid argument 0 (timestamp): ${wanted} is past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
      const head = chain.head().header.timestamp;
      if (wanted <= head) throw serverError(`timestamp must be greater than the parent block timestamp: ${wanted} is not after the head's ${head}`);
      clock.setNext(wanted);
      return wanted.toString();
    },
    anvil_setBlockTimestampInterval: async ([seconds]) => {
      setInterval(BigInt(seconds), 'seconds');
      return null;
    },
    hardhat_setBlockTimestampInterval: async ([milliseconds]) => {
      const ms = BigInt(milliseconds);
      if (ms % 1000n !== 0n) throw invalidParams(`invalid argument 0 (milliseconds): ${ms} is not a whole number of seconds; block timestamps are seconds`);
      setInterval(ms / 1000n, 'milliseconds');
      return true;
    },
    anvil_removeBlockTimestampInterval: async () => clock.setInterval(undefined),
    hardhat_removeBlockTimestampInterval: async () => clock.setInterval(undefined),
  };
}
