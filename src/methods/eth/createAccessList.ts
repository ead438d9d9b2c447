import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { createAccessList } from '../../tracing/access-list.js';
import { checkCallObject } from '../call-object.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_createAccessList({ chain, executor, pendingBlock }: Pick<MethodServices, 'chain' | 'executor' | 'pendingBlock'>): Handlers['eth_createAccessList'] {
  return async ([call, ref, state]) => {
    checkCallObject(call, chain.commons.base.chainId());
    const block = await requireBlock(chain, ref as BlockRef | undefined, pendingBlock);
    return createAccessList(executor, call, block, chain.commons.at(block.header), state);
  };
}
