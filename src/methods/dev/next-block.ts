import { createAddressFromString } from '@ethereumjs/util';
import type { AnvilSetCoinbaseParams, AnvilSetMinGasPriceParams, AnvilSetNextBlockBaseFeePerGasParams } from '../../../generated/types.js';
import { MAX_GAS_LIMIT, MIN_GAS_LIMIT } from '../../producer/next-block.js';
import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, Services } from '../services.js';
import { inBothDialects } from './dialects.js';

type Deps = Pick<Services, 'chain' | 'nextBlock' | 'pool'>;

/** What the next blocks carry: gas limit, base fee, coinbase; and the pool's price floor where fees are not EIP-1559's. */
export function nextBlockMethods({ chain, nextBlock, pool }: Deps): Pick<
  Handlers,
  | 'evm_setBlockGasLimit'
  | 'anvil_setNextBlockBaseFeePerGas'
  | 'hardhat_setNextBlockBaseFeePerGas'
  | 'anvil_setCoinbase'
  | 'hardhat_setCoinbase'
  | 'anvil_setMinGasPrice'
  | 'hardhat_setMinGasPrice'
> {
  const feeMarket = () => chain.nextCommon().isActivatedEIP(1559);
  const [anvil_setNextBlockBaseFeePerGas, hardhat_setNextBlockBaseFeePerGas] = inBothDialects(async ([baseFee]: AnvilSetNextBlockBaseFeePerGasParams) => {
    if (!feeMarket()) throw invalidParams(`setNextBlockBaseFeePerGas is only supported when EIP-1559 is active; this chain's next block is ${chain.nextCommon().hardfork()}`);
    nextBlock.setBaseFee(BigInt(baseFee));
  });
  const [anvil_setCoinbase, hardhat_setCoinbase] = inBothDialects(async ([address]: AnvilSetCoinbaseParams) => nextBlock.setCoinbase(createAddressFromString(address)));
  const [anvil_setMinGasPrice, hardhat_setMinGasPrice] = inBothDialects(async ([gasPrice]: AnvilSetMinGasPriceParams) => {
    if (feeMarket()) throw invalidParams('setMinGasPrice is not supported when EIP-1559 is active: the base fee prices transactions');
    pool.minGasPrice = BigInt(gasPrice);
  });
  return {
    evm_setBlockGasLimit: async ([gasLimit]) => {
      const limit = BigInt(gasLimit);
      if (limit < MIN_GAS_LIMIT || limit > MAX_GAS_LIMIT) throw invalidParams(`invalid argument 0 (gasLimit): ${limit} is outside what a block may carry (${MIN_GAS_LIMIT} to ${MAX_GAS_LIMIT})`);
      nextBlock.setGasLimit(limit);
      return true;
    },
    anvil_setNextBlockBaseFeePerGas,
    hardhat_setNextBlockBaseFeePerGas,
    anvil_setCoinbase,
    hardhat_setCoinbase,
    anvil_setMinGasPrice,
    hardhat_setMinGasPrice,
  };
}
