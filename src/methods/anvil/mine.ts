import { MAX_REQUESTED_TIMESTAMP } from '../../producer/block-clock.js';
import { roomForBlocks } from '../../producer/block-room.js';
import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

/** Most blocks one anvil_mine call mines: an empty block still takes ~0.5 ms (its system contracts' storage writes and state root). */
const MAX_BLOCKS_PER_CALL = 1_000_000n;

/** `blocks` blocks, the later ones `interval` seconds apart; they stop coming once the caller is gone. */
export function anvil_mine({ chain, miner, clock, config }: Pick<MethodServices, 'chain' | 'miner' | 'clock' | 'config'>): Handlers['anvil_mine'] {
  return async ([blocks, interval], ctx) => {
    const count = blocks === undefined ? 1n : BigInt(blocks);
    if (count > MAX_BLOCKS_PER_CALL) throw invalidParams(`invalid argument 0 (blocks): ${count} is more than the ${MAX_BLOCKS_PER_CALL} blocks one call may mine; call again for more`);
    if (count === 0n) return null;
    const step = interval === undefined ? 1n : BigInt(interval);
    const first = clock.timestampFor(chain.head().header);
    const last = first + (count - 1n) * (step > 1n ? step : 1n);
    if (last > MAX_REQUESTED_TIMESTAMP) {
      throw invalidParams(`invalid argument 1 (interval): the last block would carry timestamp ${last}, past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
    }
    const room = await roomForBlocks(config.dataDir);
    if (count > room.blocks) {
      throw invalidParams(`invalid argument 0 (blocks): ${count} blocks do not fit: ${room.where}, room for about ${room.blocks} more; mine fewer, or ${room.remedy}`);
    }
    await miner.mineBlocks(count, step, ctx.signal);
    return null;
  };
}
