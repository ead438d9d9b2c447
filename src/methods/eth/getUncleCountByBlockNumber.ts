import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getUncleCountByBlockNumber({ chain, pendingBlock }: Pick<MethodServices, 'chain' | 'pendingBlock'>): Handlers['eth_getUncleCountByBlockNumber'] {
  return async ([ref]) => {
    const block = await resolveBlock(chain, ref as BlockRef, pendingBlock);
    return block === undefined ? null : toQuantity(block.uncleHeaders.length);
  };
}
