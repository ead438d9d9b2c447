import { createAddressFromString } from '@ethereumjs/util';
import type { Handlers, MethodServices } from '../services.js';

export function anvil_stopImpersonatingAccount({ impersonation }: Pick<MethodServices, 'impersonation'>): Handlers['anvil_stopImpersonatingAccount'] {
  return async ([address]) => {
    impersonation.stop(createAddressFromString(address));
    return null;
  };
}
