import { toQuantity } from '../../format/quantity.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'snapshots' | 'mining'>;

/** evm_snapshot and evm_revert (src/dev/snapshots.ts says what they keep and put back). */
export function snapshotMethods({ snapshots, mining }: Deps): Pick<
  Handlers, 'evm_snapshot' | 'evm_revert'> {
  return {
    evm_snapshot: async () => toQuantity(await snapshots.take()),
    evm_revert: async ([id]) => {
      const reverted = await snapshots.revert(BigInt(id));
      // The pool is back to what it held: with automine on, what is executable there is mined as if just sent.
      if (reverted) mining.resume();
      return reverted;
    },
  };
}
