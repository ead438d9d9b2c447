import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getUncleCountByBlockHash({ chain }: Pick<MethodServices, 'chain'>): Handlers['eth_getUncleCountByBlockHash'] {
  return async ([hash]) => {
    const block = await chain.blockByHash(hexToBytes(hash as PrefixedHexString));
    return block === undefined ? null : toQuantity(block.uncleHeaders.length);
  };
}
