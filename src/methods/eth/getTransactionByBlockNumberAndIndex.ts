import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import { transactionAt } from '../block-answers.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getTransactionByBlockNumberAndIndex({ chain, pool, pendingBlock }: Pick<MethodServices, 'chain' | 'pool' | 'pendingBlock'>): Handlers['eth_getTransactionByBlockNumberAndIndex'] {
  return async ([ref, index]) => transactionAt({ chain, pool }, await resolveBlock(chain, ref as BlockRef, pendingBlock), Number(BigInt(index)));
}
