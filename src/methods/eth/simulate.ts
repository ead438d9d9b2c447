import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { toRpcSimulatedBlock } from '../../simulation/simulated-block.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'simulator' | 'pendingBlock'>;

export function simulateMethods({ chain, simulator, pendingBlock }: Deps): Pick<Handlers, 'eth_simulateV1'> {
  return {
    eth_simulateV1: async ([payload, ref]) => {
      const base = await requireBlock(chain, ref as BlockRef | undefined, pendingBlock);
      const blocks = await simulator.simulate(payload, base);
      return blocks.map((block) => toRpcSimulatedBlock(block, payload.returnFullTransactions === true));
    },
  };
}
