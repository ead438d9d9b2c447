import type { Block } from '@ethereumjs/block';
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { createVM, type VM } from '@ethereumjs/vm';
import { memoizeJumpAnalysis } from './engine-tuning.js';

/** What the EVM reads of past blocks (BLOCKHASH): the canonical block at a height. */
export interface BlockHistory {
  blockByNumber(number: bigint): Promise<Block | undefined>;
}

function evmHistory(history: BlockHistory): EVMMockBlockchainInterface {
  const view: EVMMockBlockchainInterface = {
    async getBlock(number: number) {
      const block = await history.blockByNumber(BigInt(number));
      if (block === undefined) throw new Error(`no canonical block ${number}`);
      return block;
    },
    async putBlock() {},
    shallowCopy: () => view,
  };
  return view;
}

/** A VM over `state` whose fork follows each block it runs; BLOCKHASH reads `history`. */
export async function createChainVM(history: BlockHistory, common: Common, state: StateManagerInterface): Promise<VM> {
  await memoizeJumpAnalysis();
  return createVM({ common: common.copy(), stateManager: state, blockchain: evmHistory(history) });
}
