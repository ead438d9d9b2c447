import type { Block } from '@ethereumjs/block';

/**
 * Sizes a block's source reported where they differ from the block's own encoding: a fork answers
 * the remote's `size` for the remote's blocks, byte for byte (anvil counts a block without its empty
 * withdrawals list, one byte less than geth's encoding and ours).
 */
const reported = new WeakMap<Block, number>();

export function blockSize(block: Block): number {
  return reported.get(block) ?? block.serialize().length;
}

export function keepReportedSize(block: Block, size: number | undefined): void {
  if (size !== undefined && size !== block.serialize().length) reported.set(block, size);
}
