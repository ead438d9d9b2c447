import { createAddressFromString } from '@ethereumjs/util';
import type { Handlers, MethodServices } from '../services.js';

export function anvil_setCoinbase({ nextBlock }: Pick<MethodServices, 'nextBlock'>): Handlers['anvil_setCoinbase'] {
  return async ([address]) => {
    nextBlock.setCoinbase(createAddressFromString(address));
    return null;
  };
}
