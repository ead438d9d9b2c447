import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_blobBaseFee({ chain }: Pick<MethodServices, 'chain'>): Handlers['eth_blobBaseFee'] {
  return async () => {
    const head = chain.head();
    if (!chain.commons.at(head.header).isActivatedEIP(4844)) return toQuantity(0n);
    // The header's own Common carries the block params (minBlobGas…); the chain's fork Commons do not.
    return toQuantity(head.header.calcNextBlobGasPrice(head.header.common));
  };
}
