import type { Handlers, MethodServices } from '../services.js';

/** Takes a transaction out of the pool: its hash, or null when it was not there. */
export function anvil_dropTransaction({ pool }: Pick<MethodServices, 'pool'>): Handlers['anvil_dropTransaction'] {
  return async ([hash]) => (await pool.drop(hash))?.hashHex ?? null;
}
