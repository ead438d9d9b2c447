import { createAddressFromString } from '@ethereumjs/util';
import type { Handlers, MethodServices } from '../services.js';

export function anvil_addBalance({ stateEdits }: Pick<MethodServices, 'stateEdits'>): Handlers['anvil_addBalance'] {
  return async ([address, amount]) => {
    await stateEdits.addBalance(createAddressFromString(address), BigInt(amount));
    return null;
  };
}
