import type { Common } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { createVM, type VM } from '@ethereumjs/vm';
import type { Chain } from '../chain/chain.js';

/** The EVM's view of past blocks, for BLOCKHASH: the canonical chain. */
export function chainHistory(chain: Chain): EVMMockBlockchainInterface {
  const history: EVMMockBlockchainInterface = {
    async getBlock(number: number) {
      const block = await chain.blockByNumber(BigInt(number));
      if (block === undefined) throw new Error(`no canonical block ${number}`);
      return block;
    },
    async putBlock() {},
    shallowCopy: () => history,
  };
  return history;
}

/** A VM over `state` whose fork follows each block it runs. */
export async function createChainVM(chain: Chain, common: Common, state: MerkleStateManager): Promise<VM> {
  return createVM({ common: common.copy(), stateManager: state, blockchain: chainHistory(chain) });
}
