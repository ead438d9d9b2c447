import { createAddressFromString } from '@ethereumjs/util';
import { toQuantity } from '../../format/quantity.js';
import { stateAt } from '../state-at.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getTransactionCount({ chain, pool, pendingBlock }: Pick<MethodServices, 'chain' | 'pool' | 'pendingBlock'>): Handlers['eth_getTransactionCount'] {
  return async ([address, block]) => {
    // Wallets ask for the `pending` count to pick their next nonce: it must count what the pool holds.
    if (block === 'pending') return toQuantity(await pool.pendingNonce(address.toLowerCase()));
    const account = await (await stateAt({ chain, pendingBlock }, block)).getAccount(createAddressFromString(address));
    return toQuantity(account?.nonce ?? 0n);
  };
}
