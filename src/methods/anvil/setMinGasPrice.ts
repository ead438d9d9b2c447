import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

/** The pool's price floor, where fees are not EIP-1559's. */
export function anvil_setMinGasPrice({ chain, pool }: Pick<MethodServices, 'chain' | 'pool'>): Handlers['anvil_setMinGasPrice'] {
  return async ([gasPrice]) => {
    if (chain.nextCommon().isActivatedEIP(1559)) throw invalidParams('setMinGasPrice is not supported when EIP-1559 is active: the base fee prices transactions');
    pool.minGasPrice = BigInt(gasPrice);
    return null;
  };
}
