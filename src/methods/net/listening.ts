import type { Handlers } from '../services.js';

export function net_listening(): Handlers['net_listening'] {
  return async () => true;
}
