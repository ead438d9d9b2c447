import type { BlockOverrides, StateOverride, TransactionCall } from '../../../generated/types.js';
import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { toHex } from '../../codec/hex.js';
import { AnswerTooLarge } from '../../format/answer-budget.js';
import { toQuantity } from '../../format/quantity.js';
import { serverError } from '../../rpc/errors.js';
import type { CallOverrides } from '../../state/overrides.js';
import { createAccessList } from '../../tracing/access-list.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'executor' | 'pendingBlock' | 'config'>;

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

/** The overrides a call names, or undefined (the plain path, which costs nothing extra) when it names none. */
const overridesOf = (state: StateOverride | undefined, block: BlockOverrides | undefined): CallOverrides | undefined =>
  state === undefined && block === undefined ? undefined : { state, block };

export function executionMethods({ chain, executor, pendingBlock, config }: Deps): Pick<Handlers, 'eth_call' | 'eth_estimateGas' | 'eth_createAccessList'> {
  const blockOf = (ref: unknown) => requireBlock(chain, ref as BlockRef | undefined, pendingBlock);
  return {
    eth_call: async ([call, ref, state, block]) => {
      checkCallObject(call, chain.commons.base.chainId());
      const returned = await executor.call(call, await blockOf(ref), overridesOf(state, block), 'eth_call');
      // Refused before it is encoded: "0x…" in quotes, two characters a byte.
      if (4 + 2 * returned.length > config.maxResponseBytes) throw new AnswerTooLarge(config.maxResponseBytes, 'the return data');
      return toHex(returned);
    },
    eth_estimateGas: async ([call, ref, state, block]) => {
      checkCallObject(call, chain.commons.base.chainId());
      return toQuantity(await executor.estimateGas(call, await blockOf(ref), overridesOf(state, block), 'eth_estimateGas'));
    },
    eth_createAccessList: async ([call, ref, state]) => {
      checkCallObject(call, chain.commons.base.chainId());
      const block = await blockOf(ref);
      return createAccessList(executor, call, block, chain.commons.at(block.header), state);
    },
  };
}
