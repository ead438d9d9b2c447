import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import { uncleAt } from '../block-answers.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getUncleByBlockNumberAndIndex({ chain, pendingBlock }: Pick<MethodServices, 'chain' | 'pendingBlock'>): Handlers['eth_getUncleByBlockNumberAndIndex'] {
  return async ([ref, index]) => uncleAt({ chain }, await resolveBlock(chain, ref as BlockRef, pendingBlock), Number(BigInt(index)));
}
