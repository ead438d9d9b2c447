import { toQuantity } from '../../format/quantity.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'accounts' | 'sync' | 'impersonation' | 'nextBlock'>;

export function chainInfoMethods({ chain, accounts, sync, impersonation, nextBlock }: Deps): Pick<Handlers, 'eth_chainId' | 'eth_accounts' | 'eth_syncing' | 'eth_coinbase'> {
  return {
    eth_chainId: async () => toQuantity(chain.commons.base.chainId()),
    // The node's accounts, then those impersonated, as anvil lists them: a client that looks a sender up
    // here (ethers' getSigner) can send from one.
    eth_accounts: async () => {
      const own = accounts.map((account) => account.address);
      const known = new Set(own);
      return [...own, ...impersonation.addresses().filter((address) => !known.has(address))];
    },
    eth_coinbase: async () => nextBlock.coinbase.toString(),
    eth_syncing: async () => sync.status(),
  };
}
