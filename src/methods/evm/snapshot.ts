import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

/** src/dev/snapshots.ts says what a snapshot keeps and evm_revert puts back. */
export function evm_snapshot({ snapshots }: Pick<MethodServices, 'snapshots'>): Handlers['evm_snapshot'] {
  return async () => toQuantity(await snapshots.take());
}
