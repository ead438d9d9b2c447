import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { toQuantity } from '../../format/quantity.js';
import { checkCallObject } from '../call-object.js';
import { callOverrides } from '../call-overrides.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_estimateGas({ chain, executor, pendingBlock }: Pick<MethodServices, 'chain' | 'executor' | 'pendingBlock'>): Handlers['eth_estimateGas'] {
  return async ([call, ref, state, block]) => {
    checkCallObject(call, chain.commons.base.chainId());
    return toQuantity(await executor.estimateGas(call, await requireBlock(chain, ref as BlockRef | undefined, pendingBlock), callOverrides(state, block), 'eth_estimateGas'));
  };
}
