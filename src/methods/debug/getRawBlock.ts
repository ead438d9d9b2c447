import { bytesToHex } from '@ethereumjs/util';
import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import type { Handlers, MethodServices } from '../services.js';

export function debug_getRawBlock({ chain, pendingBlock }: Pick<MethodServices, 'chain' | 'pendingBlock'>): Handlers['debug_getRawBlock'] {
  return async ([ref]) => {
    const block = await resolveBlock(chain, ref as BlockRef, pendingBlock);
    return block === undefined ? null : bytesToHex(block.serialize());
  };
}
