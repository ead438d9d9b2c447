import { createAddressFromString } from '@ethereumjs/util';
import { toQuantity } from '../../format/quantity.js';
import { stateAt } from '../state-at.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getBalance({ chain, pendingBlock }: Pick<MethodServices, 'chain' | 'pendingBlock'>): Handlers['eth_getBalance'] {
  return async ([address, block]) => {
    const account = await (await stateAt({ chain, pendingBlock }, block)).getAccount(createAddressFromString(address));
    return toQuantity(account?.balance ?? 0n);
  };
}
