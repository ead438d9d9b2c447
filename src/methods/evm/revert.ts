import type { Handlers, MethodServices } from '../services.js';

export function evm_revert({ snapshots, mining }: Pick<MethodServices, 'snapshots' | 'mining'>): Handlers['evm_revert'] {
  return async ([id]) => {
    const reverted = await snapshots.revert(BigInt(id));
    // The pool is back to what it held: with automine on, what is executable there is mined as if just sent.
    if (reverted) mining.resume();
    return reverted;
  };
}
