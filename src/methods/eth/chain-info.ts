import { toQuantity } from '../../format/quantity.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'accounts' | 'sync'>;

export function chainInfoMethods({ chain, accounts, sync }: Deps): Pick<Handlers, 'eth_chainId' | 'eth_accounts' | 'eth_syncing'> {
  return {
    eth_chainId: async () => toQuantity(chain.commons.base.chainId()),
    eth_accounts: async () => accounts.map((account) => account.address),
    eth_syncing: async () => sync.status(),
  };
}
