import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { toRpcSimulatedBlock } from '../../simulation/simulated-block.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_simulateV1({ chain, simulator, pendingBlock }: Pick<MethodServices, 'chain' | 'simulator' | 'pendingBlock'>): Handlers['eth_simulateV1'] {
  return async ([payload, ref]) => {
    const base = await requireBlock(chain, ref as BlockRef | undefined, pendingBlock);
    const blocks = await simulator.simulate(payload, base);
    return blocks.map((block) => toRpcSimulatedBlock(block, payload.returnFullTransactions === true));
  };
}
