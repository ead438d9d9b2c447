import { bytesToHex } from '@ethereumjs/util';
import type { TransactionCall } from '../../../generated/types.js';
import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { toQuantity } from '../../format/quantity.js';
import { serverError } from '../../rpc/errors.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'executor' | 'pendingBlock'>;

/** geth's checks of a call object before it runs (eth_call, eth_estimateGas, eth_sendTransaction), in its words. */
export function checkCallObject(call: TransactionCall, chainId: bigint): void {
  if (call.input !== undefined && call.data !== undefined && call.input.toLowerCase() !== call.data.toLowerCase()) {
    throw serverError('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
  }
  if (call.gasPrice !== undefined && (call.maxFeePerGas !== undefined || call.maxPriorityFeePerGas !== undefined)) {
    throw serverError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  }
  if (call.chainId !== undefined && BigInt(call.chainId) !== chainId) {
    throw serverError(`chainId does not match node's (have=${BigInt(call.chainId)}, want=${chainId})`);
  }
}

export function executionMethods({ chain, executor, pendingBlock }: Deps): Pick<Handlers, 'eth_call' | 'eth_estimateGas'> {
  const blockOf = (ref: unknown) => requireBlock(chain, ref as BlockRef | undefined, pendingBlock);
  return {
    eth_call: async ([call, ref]) => {
      checkCallObject(call, chain.commons.base.chainId());
      const block = await blockOf(ref);
      return bytesToHex(await executor.call(call, block));
    },
    eth_estimateGas: async ([call, ref]) => {
      checkCallObject(call, chain.commons.base.chainId());
      const block = await blockOf(ref);
      return toQuantity(await executor.estimateGas(call, block));
    },
  };
}
