import type { TransactionCall } from '../../generated/types.js';
import { serverError } from '../rpc/errors.js';

/** geth's checks of a call object before it runs (eth_call, eth_estimateGas, eth_sendTransaction…), in its words. */
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
