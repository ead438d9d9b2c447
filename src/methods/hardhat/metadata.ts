import { bytesToHex } from '@ethereumjs/util';
import type { RunMetadata } from '../../../generated/types.js';
import { clientVersion } from '../client-version.js';
import type { Handlers, MethodServices } from '../services.js';

/** This run of the node: its client, chain, run id and head, and the fork it reads, if any (hardhat_metadata, anvil_metadata). */
export function runMetadata({ chain, node }: Pick<MethodServices, 'chain' | 'node'>): RunMetadata {
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
}

export function hardhat_metadata(services: Pick<MethodServices, 'chain' | 'node'>): Handlers['hardhat_metadata'] {
  return async () => runMetadata(services);
}
