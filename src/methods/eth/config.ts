import { ethConfig } from '../../format/fork-config.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_config({ chain }: Pick<MethodServices, 'chain'>): Handlers['eth_config'] {
  return async () =>
    ethConfig({ spec: chain.spec, genesisHash: chain.genesis.hash(), genesisTime: chain.genesis.header.timestamp, commons: chain.commons }, chain.head().header);
}
