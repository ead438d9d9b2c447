import { MAX_GAS_LIMIT, MIN_GAS_LIMIT } from '../../producer/next-block.js';
import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

export function evm_setBlockGasLimit({ nextBlock }: Pick<MethodServices, 'nextBlock'>): Handlers['evm_setBlockGasLimit'] {
  return async ([gasLimit]) => {
    const limit = BigInt(gasLimit);
    if (limit < MIN_GAS_LIMIT || limit > MAX_GAS_LIMIT) throw invalidParams(`invalid argument 0 (gasLimit): ${limit} is outside what a block may carry (${MIN_GAS_LIMIT} to ${MAX_GAS_LIMIT})`);
    nextBlock.setGasLimit(limit);
    return true;
  };
}
