import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { transactionAt } from '../block-answers.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getTransactionByBlockHashAndIndex({ chain, pool }: Pick<MethodServices, 'chain' | 'pool'>): Handlers['eth_getTransactionByBlockHashAndIndex'] {
  return async ([hash, index]) => transactionAt({ chain, pool }, await chain.blockByHash(hexToBytes(hash as PrefixedHexString)), Number(BigInt(index)));
}
