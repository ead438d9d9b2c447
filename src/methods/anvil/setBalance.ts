import { createAddressFromString } from '@ethereumjs/util';
import type { Handlers, MethodServices } from '../services.js';

/** src/dev/state-edits.ts says how the edits of anvil_setBalance and its kin land. */
export function anvil_setBalance({ stateEdits }: Pick<MethodServices, 'stateEdits'>): Handlers['anvil_setBalance'] {
  return async ([address, balance]) => {
    await stateEdits.setBalance(createAddressFromString(address), BigInt(balance));
    return null;
  };
}
