import type { Block as EthBlock } from '@ethereumjs/block';
import type { BlockHeader } from '../../generated/types.js';
import { toRpcBlock } from './block.js';

/** A block header as the newHeads subscription pushes it, as geth does: the block object without its body. */
export function toRpcHeader(block: EthBlock): BlockHeader {
  const { size, totalDifficulty, transactions, uncles, withdrawals, ...header } = toRpcBlock(block, 0n, []);
  return header;
}
