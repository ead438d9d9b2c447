import type { Handlers, MethodServices } from '../services.js';

export function anvil_removeBlockTimestampInterval({ clock }: Pick<MethodServices, 'clock'>): Handlers['anvil_removeBlockTimestampInterval'] {
  return async () => clock.setInterval(undefined);
}
