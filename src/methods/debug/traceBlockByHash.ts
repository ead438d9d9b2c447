import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { serverError } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

export function debug_traceBlockByHash({ chain, tracing }: Pick<MethodServices, 'chain' | 'tracing'>): Handlers['debug_traceBlockByHash'] {
  return async ([hash, config]) => {
    const block = await chain.blockByHash(hexToBytes(hash as PrefixedHexString));
    if (block === undefined) throw serverError(`block ${hash.toLowerCase()} not found`);
    return tracing.traceBlock(block, config);
  };
}
