import type { Handlers, MethodServices } from '../services.js';

/** Takes every transaction of one sender out of the pool; answers null, as anvil does. */
export function anvil_removePoolTransactions({ pool }: Pick<MethodServices, 'pool'>): Handlers['anvil_removePoolTransactions'] {
  return async ([address]) => {
    const sender = address.toLowerCase();
    await pool.clear((ptx) => ptx.senderHex === sender);
    return null;
  };
}
