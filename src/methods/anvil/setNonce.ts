import { createAddressFromString } from '@ethereumjs/util';
import type { Handlers, MethodServices } from '../services.js';

export function anvil_setNonce({ stateEdits }: Pick<MethodServices, 'stateEdits'>): Handlers['anvil_setNonce'] {
  return async ([address, nonce]) => {
    await stateEdits.setNonce(createAddressFromString(address), BigInt(nonce));
    return null;
  };
}
