import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import { blockAnswer } from '../block-answers.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getBlockByNumber({ chain, pool, answers, pendingBlock }: Pick<MethodServices, 'chain' | 'pool' | 'answers' | 'pendingBlock'>): Handlers['eth_getBlockByNumber'] {
  return async ([ref, full]) => blockAnswer({ chain, pool, answers }, 'eth_getBlockByNumber', await resolveBlock(chain, ref as BlockRef, pendingBlock), full);
}
