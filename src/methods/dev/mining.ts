import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, Services } from '../services.js';

/**
 * The latest timestamp a requested block may carry: the last second of the year 9999. Every later
 * block needs a later timestamp, so a block near the header's 64-bit ceiling would leave the chain
 * unable to grow — and @ethereumjs/common already misjudges forks for timestamps past 2^53.
 */
export const MAX_REQUESTED_TIMESTAMP = 253_402_300_799n;

/** Anvil/Hardhat-compatible mining control. */
export function devMethods({ miner, mining }: Pick<Services, 'miner' | 'mining'>): Pick<Handlers,
  'evm_mine' | 'evm_setAutomine' | 'evm_setIntervalMining'
> {
  return {
    evm_mine: async ([timestamp]) => {
      const requested = timestamp === undefined ? undefined : BigInt(timestamp);
      if (requested !== undefined && requested > MAX_REQUESTED_TIMESTAMP) {
        throw invalidParams(`invalid argument 0 (timestamp): ${requested} is past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
      }
      await miner.mine(requested);
      return '0x0';
    },
    evm_setAutomine: async ([on]) => {
      mining.setAutomine(on);
      return true;
    },
    evm_setIntervalMining: async ([ms]) => {
      mining.setInterval(Number(ms));
      return true;
    },
  };
}
