import { bytesToHex } from '@ethereumjs/util';
import { ethConfig } from '../../format/fork-config.js';
import { toQuantity } from '../../format/quantity.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain'>;

export function configMethods({ chain }: Deps): Pick<Handlers, 'eth_config' | 'eth_capabilities'> {
  return {
    eth_config: () =>
      ethConfig({ spec: chain.spec, genesisHash: chain.genesis.hash(), genesisTime: chain.genesis.header.timestamp, commons: chain.commons }, chain.head().header),
    eth_capabilities: async () => {
      const head = chain.head();
      // Every block, receipt, log and state is kept from genesis on (trie nodes are never pruned).
      const kept = { disabled: false, oldestBlock: toQuantity(0n) };
      return {
        head: { number: toQuantity(head.header.number), hash: bytesToHex(head.hash()) },
        state: kept,
        tx: kept,
        logs: kept,
        receipts: kept,
        blocks: kept,
        stateproofs: kept,
      };
    },
  };
}
