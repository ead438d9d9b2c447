import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import { serverError } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

export function debug_traceBlockByNumber({ chain, tracing }: Pick<MethodServices, 'chain' | 'tracing'>): Handlers['debug_traceBlockByNumber'] {
  return async ([ref, config]) => {
    // The pending block has no recorded execution to replay; block overrides on debug_traceCall serve that need.
    if (ref === 'pending') throw serverError('tracing the pending block is not supported');
    const block = await resolveBlock(chain, ref as BlockRef);
    if (block === undefined) throw serverError(`block #${BigInt(ref)} not found`);
    return tracing.traceBlock(block, config);
  };
}
