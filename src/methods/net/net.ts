import type { RpcMethods } from '../../../generated/methods.js';
import type { Services } from '../services.js';

const CLIENT_VERSION = `evm-node/v0.1.0/${process.platform}-${process.arch}/node${process.versions.node}`;

export function netMethods({ chain, contract }: Pick<Services, 'chain' | 'contract'>): Pick<
  RpcMethods,
  'net_version' | 'net_listening' | 'web3_clientVersion' | 'rpc.discover'
> {
  return {
    net_version: async () => chain.commons.base.chainId().toString(10),
    net_listening: async () => true,
    web3_clientVersion: async () => CLIENT_VERSION,
    'rpc.discover': async () => contract as never,
  };
}
