import type { Block as EthBlock } from '@ethereumjs/block';
import type { BlockHeader } from '../../generated/types.js';
import { toRpcBlock } from './block.js';

/** Members of a block object that describe its body or chain position, not its header. */
const BODY_MEMBERS = ['size', 'totalDifficulty', 'transactions', 'uncles', 'withdrawals'] as const;

/** A block header as the newHeads subscription pushes it, as geth does: the block object without its body. */
export function toRpcHeader(block: EthBlock): BlockHeader {
  const rpc = toRpcBlock(block, 0n, []) as unknown as Record<string, unknown>;
  for (const member of BODY_MEMBERS) delete rpc[member];
  return rpc as unknown as BlockHeader;
}
