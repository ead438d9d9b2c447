import { bytesToHex, createAddressFromString, setLengthLeft } from '@ethereumjs/util';
import { stateAt } from '../state-at.js';
import { storageKey } from '../storage-keys.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getStorageAt({ chain, pendingBlock }: Pick<MethodServices, 'chain' | 'pendingBlock'>): Handlers['eth_getStorageAt'] {
  return async ([address, slot, block]) => {
    const value = await (await stateAt({ chain, pendingBlock }, block)).getStorage(createAddressFromString(address), storageKey(slot));
    return bytesToHex(setLengthLeft(value, 32));
  };
}
