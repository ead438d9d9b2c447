import { createAddressFromString } from '@ethereumjs/util';
import type { Handlers, MethodServices } from '../services.js';

/** src/txpool/impersonation.ts says how an impersonated sender's transactions are signed. */
export function anvil_impersonateAccount({ impersonation }: Pick<MethodServices, 'impersonation'>): Handlers['anvil_impersonateAccount'] {
  return async ([address]) => {
    impersonation.impersonate(createAddressFromString(address));
    return null;
  };
}
