import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { serverError } from '../../rpc/errors.js';
import { checkCallObject } from '../call-object.js';
import type { Handlers, MethodServices } from '../services.js';

export function debug_traceCall({ chain, tracing }: Pick<MethodServices, 'chain' | 'tracing'>): Handlers['debug_traceCall'] {
  return async ([call, ref, config]) => {
    checkCallObject(call, chain.commons.base.chainId());
    // The pending block is the miner's guess; block overrides trace on a future block instead.
    if (ref === 'pending') throw serverError('tracing on top of pending is not supported');
    return tracing.traceCall(call, await requireBlock(chain, ref as BlockRef | undefined), config);
  };
}
