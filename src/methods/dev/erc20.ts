import { createAddressFromString } from '@ethereumjs/util';
import { Erc20Balances } from '../../dev/erc20-balance.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'executor' | 'stateEdits'>;

/** anvil_dealERC20 (src/dev/erc20-balance.ts says how the balance's slot is found). */
export function erc20Methods({ chain, executor, stateEdits }: Deps): Pick<Handlers, 'anvil_dealERC20'> {
  const balances = new Erc20Balances(executor, stateEdits, () => chain.head());
  return {
    anvil_dealERC20: async ([holder, token, amount]) => {
      await balances.deal(createAddressFromString(holder), createAddressFromString(token), BigInt(amount));
      return null;
    },
  };
}
