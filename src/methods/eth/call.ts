import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { toHex } from '../../codec/hex.js';
import { AnswerTooLarge } from '../../format/answer-budget.js';
import { checkCallObject } from '../call-object.js';
import { callOverrides } from '../call-overrides.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_call({ chain, executor, pendingBlock, config }: Pick<MethodServices, 'chain' | 'executor' | 'pendingBlock' | 'config'>): Handlers['eth_call'] {
  return async ([call, ref, state, block]) => {
    checkCallObject(call, chain.commons.base.chainId());
    const returned = await executor.call(call, await requireBlock(chain, ref as BlockRef | undefined, pendingBlock), callOverrides(state, block), 'eth_call');
    // Refused before it is encoded: "0x…" in quotes, two characters a byte.
    if (4 + 2 * returned.length > config.maxResponseBytes) throw new AnswerTooLarge(config.maxResponseBytes, 'the return data');
    return toHex(returned);
  };
}
