import type { RpcMethods } from '../../../generated/methods.js';
import type { Services } from '../services.js';

/** Anvil/Hardhat-compatible mining control. */
export function devMethods({ miner, mining }: Pick<Services, 'miner' | 'mining'>): Pick<
  RpcMethods,
  'evm_mine' | 'evm_setAutomine' | 'evm_setIntervalMining'
> {
  return {
    evm_mine: async ([timestamp]) => {
      await miner.mine(timestamp === undefined ? undefined : BigInt(timestamp));
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
