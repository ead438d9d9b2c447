import { requireBlock, type BlockRef } from '../chain/block-tags.js';
import type { Services } from './services.js';

/** The state a block tag, number or hash names (`pending`: the block the node would mine next); -32000 for an unknown block. */
export async function stateAt({ chain, pendingBlock }: Pick<Services, 'chain' | 'pendingBlock'>, ref: unknown) {
  const block = await requireBlock(chain, ref as BlockRef | undefined, pendingBlock);
  return chain.state.at(chain.stateRootOf(block));
}
