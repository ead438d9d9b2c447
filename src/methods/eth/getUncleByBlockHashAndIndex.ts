import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { uncleAt } from '../block-answers.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getUncleByBlockHashAndIndex({ chain }: Pick<MethodServices, 'chain'>): Handlers['eth_getUncleByBlockHashAndIndex'] {
  return async ([hash, index]) => uncleAt({ chain }, await chain.blockByHash(hexToBytes(hash as PrefixedHexString)), Number(BigInt(index)));
}
