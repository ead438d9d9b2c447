import { bytesToHex } from '@ethereumjs/util';
import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import type { Handlers, MethodServices } from '../services.js';

export function debug_getRawHeader({ chain, pendingBlock }: Pick<MethodServices, 'chain' | 'pendingBlock'>): Handlers['debug_getRawHeader'] {
  return async ([ref]) => {
    const block = await resolveBlock(chain, ref as BlockRef, pendingBlock);
    return block === undefined ? null : bytesToHex(block.header.serialize());
  };
}
