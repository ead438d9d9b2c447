import { packageVersion } from '../../contract.js';
import type { Handlers, Services } from '../services.js';

/** As the contract documents it: `evm-node/v<package version>`, the same on every machine. */
export const clientVersion = (): string => `evm-node/v${packageVersion()}`;

export function netMethods({ chain, contract }: Pick<Services, 'chain' | 'contract'>): Pick<Handlers,
  'net_version' | 'net_listening' | 'web3_clientVersion' | 'rpc.discover'
> {
  return {
    net_version: async () => chain.commons.base.chainId().toString(10),
    net_listening: async () => true,
    web3_clientVersion: async () => clientVersion(),
    'rpc.discover': async () => contract(),
  };
}
