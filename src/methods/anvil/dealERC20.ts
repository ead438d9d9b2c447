import { createAddressFromString } from '@ethereumjs/util';
import { Erc20Balances } from '../../dev/erc20-balance.js';
import type { Handlers, MethodServices } from '../services.js';

/** src/dev/erc20-balance.ts says how the balance's slot is found. */
export function anvil_dealERC20({ chain, executor, stateEdits }: Pick<MethodServices, 'chain' | 'executor' | 'stateEdits'>): Handlers['anvil_dealERC20'] {
  const balances = new Erc20Balances(executor, stateEdits, () => chain.head());
  return async ([holder, token, amount]) => {
    await balances.deal(createAddressFromString(holder), createAddressFromString(token), BigInt(amount));
    return null;
  };
}
