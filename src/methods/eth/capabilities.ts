import { bytesToHex } from '@ethereumjs/util';
import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_capabilities({ chain }: Pick<MethodServices, 'chain'>): Handlers['eth_capabilities'] {
  return async () => {
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
  };
}
