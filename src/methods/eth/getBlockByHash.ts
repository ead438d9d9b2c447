import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { blockAnswer } from '../block-answers.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getBlockByHash({ chain, pool, answers }: Pick<MethodServices, 'chain' | 'pool' | 'answers'>): Handlers['eth_getBlockByHash'] {
  return async ([hash, full]) => blockAnswer({ chain, pool, answers }, 'eth_getBlockByHash', await chain.blockByHash(hexToBytes(hash as PrefixedHexString)), full);
}
