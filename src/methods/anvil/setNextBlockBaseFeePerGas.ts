import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

export function anvil_setNextBlockBaseFeePerGas({ chain, nextBlock }: Pick<MethodServices, 'chain' | 'nextBlock'>): Handlers['anvil_setNextBlockBaseFeePerGas'] {
  return async ([baseFee]) => {
    if (!chain.nextCommon().isActivatedEIP(1559)) throw invalidParams(`setNextBlockBaseFeePerGas is only supported when EIP-1559 is active; this chain's next block is ${chain.nextCommon().hardfork()}`);
    nextBlock.setBaseFee(BigInt(baseFee));
    return null;
  };
}
