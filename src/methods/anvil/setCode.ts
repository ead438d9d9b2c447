import { createAddressFromString, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { Handlers, MethodServices } from '../services.js';

export function anvil_setCode({ stateEdits }: Pick<MethodServices, 'stateEdits'>): Handlers['anvil_setCode'] {
  return async ([address, code]) => {
    await stateEdits.setCode(createAddressFromString(address), hexToBytes(code as PrefixedHexString));
    return null;
  };
}
