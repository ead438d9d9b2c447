import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { stateAt } from '../state-at.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getCode({ chain, pendingBlock }: Pick<MethodServices, 'chain' | 'pendingBlock'>): Handlers['eth_getCode'] {
  return async ([address, block]) => bytesToHex(await (await stateAt({ chain, pendingBlock }, block)).getCode(createAddressFromString(address)));
}
