import { bytesToHex, createAddressFromString, setLengthLeft } from '@ethereumjs/util';
import { clientLimitExceeded, invalidParams } from '../../rpc/errors.js';
import { stateAt } from '../state-at.js';
import { storageKey } from '../storage-keys.js';
import type { Handlers, MethodServices } from '../services.js';

/** The most slots one eth_getStorageValues may read, as geth allows. */
const MAX_STORAGE_VALUES = 1024;

export function eth_getStorageValues({ chain, pendingBlock }: Pick<MethodServices, 'chain' | 'pendingBlock'>): Handlers['eth_getStorageValues'] {
  return async ([requests, block]) => {
    const slots = Object.values(requests).reduce((total, keys) => total + keys.length, 0);
    if (slots > MAX_STORAGE_VALUES) throw clientLimitExceeded(`too many slots (max ${MAX_STORAGE_VALUES})`);
    if (slots === 0) throw invalidParams('empty request');
    const state = await stateAt({ chain, pendingBlock }, block);
    const values: Record<string, string[]> = {};
    for (const [address, keys] of Object.entries(requests)) {
      const account = createAddressFromString(address);
      values[account.toString()] = await Promise.all(keys.map(async (key) => bytesToHex(setLengthLeft(await state.getStorage(account, storageKey(key)), 32))));
    }
    return values;
  };
}
