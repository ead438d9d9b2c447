import type { Handlers, MethodServices } from '../services.js';

export function anvil_setLoggingEnabled({ node }: Pick<MethodServices, 'node'>): Handlers['anvil_setLoggingEnabled'] {
  return async ([on]) => {
    node.setLogging(on);
    return null;
  };
}
