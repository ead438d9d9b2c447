import { createAddressFromString } from '@ethereumjs/util';
import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import type { Handlers, MethodServices } from '../services.js';

export function ots_hasCode({ chain }: Pick<MethodServices, 'chain'>): Handlers['ots_hasCode'] {
  return async ([address, ref]) => {
    const block = await requireBlock(chain, ref as BlockRef);
    const state = await chain.state.at(chain.stateRootOf(block));
    return (await state.getCode(createAddressFromString(address))).length > 0;
  };
}
