import type { Handlers, Services } from '../services.js';

/** As the contract documents it: `evm-node/v<package version>`, the same on every machine. */
export const CLIENT_VERSION = 'evm-node/v0.1.0';

export function netMethods({ chain, contract }: Pick<Services, 'chain' | 'contract'>): Pick<Handlers,
  'net_version' | 'net_listening' | 'web3_clientVersion' | 'rpc.discover'
> {
  return {
    net_version: async () => chain.commons.base.chainId().toString(10),
    net_listening: async () => true,
    web3_clientVersion: async () => CLIENT_VERSION,
    'rpc.discover': async () => contract(),
  };
}
