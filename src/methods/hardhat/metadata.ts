import { bytesToHex } from '@ethereumjs/util';
import { clientVersion } from '../client-version.js';
import type { Handlers, MethodServices } from '../services.js';

export function hardhat_metadata({ chain, node }: Pick<MethodServices, 'chain' | 'node'>): Handlers['hardhat_metadata'] {
  return async () => {
    const head = chain.head();
    const fork = chain.fork?.info;
    return {
      clientVersion: clientVersion(),
      chainId: Number(chain.commons.base.chainId()),
      instanceId: node.instanceId,
      latestBlockNumber: Number(head.header.number),
      latestBlockHash: bytesToHex(head.hash()),
      ...(fork === undefined ? {} : { forkedNetwork: { chainId: Number(fork.remoteChainId), forkBlockNumber: Number(fork.number), forkBlockHash: bytesToHex(fork.hash) } }),
    };
  };
}
