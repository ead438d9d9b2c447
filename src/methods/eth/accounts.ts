import type { Handlers, MethodServices } from '../services.js';

export function eth_accounts({ accounts, impersonation }: Pick<MethodServices, 'accounts' | 'impersonation'>): Handlers['eth_accounts'] {
  // The node's accounts, then those impersonated, as anvil lists them: a client that looks a sender up
  // here (ethers' getSigner) can send from one.
  return async () => {
    const own = accounts.map((account) => account.address);
    const known = new Set(own);
    return [...own, ...impersonation.addresses().filter((address) => !known.has(address))];
  };
}
