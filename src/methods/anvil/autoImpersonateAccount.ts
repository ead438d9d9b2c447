import type { Handlers, MethodServices } from '../services.js';

export function anvil_autoImpersonateAccount({ impersonation }: Pick<MethodServices, 'impersonation'>): Handlers['anvil_autoImpersonateAccount'] {
  return async ([on]) => {
    impersonation.setAutomatic(on);
    return null;
  };
}
