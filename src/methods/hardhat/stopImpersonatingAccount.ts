import { createAddressFromString } from '@ethereumjs/util';
import type { Handlers, MethodServices } from '../services.js';

/** anvil_stopImpersonatingAccount's work, answering whether the address was impersonated (anvil answers null). */
export function hardhat_stopImpersonatingAccount({ impersonation }: Pick<MethodServices, 'impersonation'>): Handlers['hardhat_stopImpersonatingAccount'] {
  return async ([address]) => impersonation.stop(createAddressFromString(address));
}
