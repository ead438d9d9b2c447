import type { AnvilMineParams } from '../../../generated/types.js';
import { MAX_REQUESTED_TIMESTAMP } from '../../producer/block-clock.js';
import { roomForBlocks } from '../../producer/block-room.js';
import type { CallContext } from '../../rpc/dispatch.js';
import { invalidParams, serverError } from '../../rpc/errors.js';
import type { Handlers, Services } from '../services.js';
import { inBothDialects } from './dialects.js';

/** Most blocks one anvil_mine call mines: an empty block still takes ~0.5 ms (its system contracts' storage writes and state root). */
export const MAX_BLOCKS_PER_CALL = 1_000_000n;

type Deps = Pick<Services, 'chain' | 'miner' | 'mining' | 'clock' | 'config'>;

/** Anvil/Hardhat-compatible mining control. */
export function devMethods({ chain, miner, mining, clock, config }: Deps): Pick<
  Handlers,
  'evm_mine' | 'evm_setAutomine' | 'evm_setIntervalMining' | 'anvil_mine' | 'hardhat_mine' | 'anvil_getAutomine' | 'hardhat_getAutomine'
> {
  // `blocks` blocks, the later ones `interval` seconds apart; they stop coming once the caller is gone.
  const [anvil_mine, hardhat_mine] = inBothDialects(async ([blocks, interval]: AnvilMineParams, ctx: CallContext) => {
    const count = blocks === undefined ? 1n : BigInt(blocks);
    if (count > MAX_BLOCKS_PER_CALL) throw invalidParams(`invalid argument 0 (blocks): ${count} is more than the ${MAX_BLOCKS_PER_CALL} blocks one call may mine; call again for more`);
    if (count === 0n) return;
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
  });
  return {
    evm_mine: async ([timestamp]) => {
      const requested = timestamp === undefined ? undefined : BigInt(timestamp);
      if (requested !== undefined && requested > MAX_REQUESTED_TIMESTAMP) {
        throw invalidParams(`invalid argument 0 (timestamp): ${requested} is past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP})`);
      }
      const head = chain.head().header.timestamp;
      const next = clock.timestampFor(chain.head().header, requested);
      if (next > MAX_REQUESTED_TIMESTAMP) {
        throw serverError(`the next block would carry timestamp ${next}, past the latest a block may carry (${MAX_REQUESTED_TIMESTAMP}, the last second of the year 9999): the head carries ${head}`);
      }
      await miner.mine(requested);
      return '0x0';
    },
    evm_setAutomine: async ([on]) => {
      mining.setAutomine(on);
      return true;
    },
    evm_setIntervalMining: async ([ms]) => {
      mining.setInterval(Number(ms));
      return true;
    },
    anvil_mine,
    hardhat_mine,
    anvil_getAutomine: async () => mining.isAutomine,
    hardhat_getAutomine: async () => mining.isAutomine,
  };
}
