import { createAddressFromString } from '@ethereumjs/util';
import type { RpcMethods } from '../../../generated/methods.js';
import { invalidParams } from '../../rpc/errors.js';
import type { Services } from '../services.js';

/** geth's MaxGasLimit: the largest gas limit a header may carry. */
const MAX_GAS_LIMIT = 2n ** 63n - 1n;

type Deps = Pick<Services, 'chain' | 'nextBlock' | 'pool'>;

/** What the next blocks carry: gas limit, base fee, coinbase; and the pool's price floor where fees are not EIP-1559's. */
export function nextBlockMethods({ chain, nextBlock, pool }: Deps): Pick<
  RpcMethods,
  | 'evm_setBlockGasLimit'
  | 'anvil_setNextBlockBaseFeePerGas'
  | 'hardhat_setNextBlockBaseFeePerGas'
  | 'anvil_setCoinbase'
  | 'hardhat_setCoinbase'
  | 'anvil_setMinGasPrice'
  | 'hardhat_setMinGasPrice'
> {
  const feeMarket = () => chain.nextCommon().isActivatedEIP(1559);
  const setBaseFee = (method: string, baseFee: string): void => {
    if (!feeMarket()) throw invalidParams(`${method} is only supported when EIP-1559 is active; this chain's next block is ${chain.nextCommon().hardfork()}`);
    nextBlock.setBaseFee(BigInt(baseFee));
  };
  const setMinGasPrice = (method: string, gasPrice: string): void => {
    if (feeMarket()) throw invalidParams(`${method} is not supported when EIP-1559 is active: the base fee prices transactions`);
    pool.minGasPrice = BigInt(gasPrice);
  };
  return {
    evm_setBlockGasLimit: async ([gasLimit]) => {
      const limit = BigInt(gasLimit);
      const least = chain.nextCommon().param('minGasLimit');
      if (limit < least || limit > MAX_GAS_LIMIT) throw invalidParams(`invalid argument 0 (gasLimit): ${limit} is outside what a block may carry (${least} to ${MAX_GAS_LIMIT})`);
      nextBlock.setGasLimit(limit);
      return true;
    },
    anvil_setNextBlockBaseFeePerGas: async ([baseFee]) => {
      setBaseFee('anvil_setNextBlockBaseFeePerGas', baseFee);
      return null;
    },
    hardhat_setNextBlockBaseFeePerGas: async ([baseFee]) => {
      setBaseFee('hardhat_setNextBlockBaseFeePerGas', baseFee);
      return true;
    },
    anvil_setCoinbase: async ([address]) => {
      nextBlock.setCoinbase(createAddressFromString(address));
      return null;
    },
    hardhat_setCoinbase: async ([address]) => {
      nextBlock.setCoinbase(createAddressFromString(address));
      return true;
    },
    anvil_setMinGasPrice: async ([gasPrice]) => {
      setMinGasPrice('anvil_setMinGasPrice', gasPrice);
      return null;
    },
    hardhat_setMinGasPrice: async ([gasPrice]) => {
      setMinGasPrice('hardhat_setMinGasPrice', gasPrice);
      return true;
    },
  };
}
