import { createAddressFromString } from '@ethereumjs/util';
import { storageKey } from '../storage-keys.js';
import type { Handlers, MethodServices } from '../services.js';

export function anvil_setStorageAt({ stateEdits }: Pick<MethodServices, 'stateEdits'>): Handlers['anvil_setStorageAt'] {
  // A storage word is given as a slot is: a quantity or a full word, left-padded to 32 bytes. anvil and Hardhat both answer true.
  return async ([address, slot, value]) => {
    await stateEdits.setStorage(createAddressFromString(address), storageKey(slot), storageKey(value));
    return true;
  };
}
