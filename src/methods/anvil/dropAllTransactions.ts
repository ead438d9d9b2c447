import type { Handlers, MethodServices } from '../services.js';

/** Empties the pool, its journal with it; answers null, as anvil does. */
export function anvil_dropAllTransactions({ pool }: Pick<MethodServices, 'pool'>): Handlers['anvil_dropAllTransactions'] {
  return async () => {
    await pool.clear();
    return null;
  };
}
