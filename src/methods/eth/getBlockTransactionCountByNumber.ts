import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getBlockTransactionCountByNumber({ chain, pendingBlock }: Pick<MethodServices, 'chain' | 'pendingBlock'>): Handlers['eth_getBlockTransactionCountByNumber'] {
  return async ([ref]) => {
    const block = await resolveBlock(chain, ref as BlockRef, pendingBlock);
    return block === undefined ? null : toQuantity(block.transactions.length);
  };
}
