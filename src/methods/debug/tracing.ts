import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { requireBlock, resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import { checkCallObject } from '../eth/execution.js';
import { serverError } from '../../rpc/errors.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'tracing'>;

export function tracingMethods({ chain, tracing }: Deps): Pick<Handlers,
  'debug_traceTransaction' | 'debug_traceBlockByNumber' | 'debug_traceBlockByHash' | 'debug_traceCall'
> {
  return {
    debug_traceCall: async ([call, ref, config]) => {
      checkCallObject(call, chain.commons.base.chainId());
      // The pending block is the miner's guess; block overrides trace on a future block instead.
      if (ref === 'pending') throw serverError('tracing on top of pending is not supported');
      return tracing.traceCall(call, await requireBlock(chain, ref as BlockRef | undefined), config);
    },
    debug_traceTransaction: ([hash, config]) => tracing.traceTransaction(hexToBytes(hash as PrefixedHexString), config),
    debug_traceBlockByNumber: async ([ref, config]) => {
      // The pending block has no recorded execution to replay; block overrides on debug_traceCall serve that need.
      if (ref === 'pending') throw serverError('tracing the pending block is not supported');
      const block = await resolveBlock(chain, ref as BlockRef);
      if (block === undefined) throw serverError(`block #${BigInt(ref)} not found`);
      return tracing.traceBlock(block, config);
    },
    debug_traceBlockByHash: async ([hash, config]) => {
      const block = await chain.blockByHash(hexToBytes(hash as PrefixedHexString));
      if (block === undefined) throw serverError(`block ${hash.toLowerCase()} not found`);
      return tracing.traceBlock(block, config);
    },
  };
}
