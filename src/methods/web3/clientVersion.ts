import { clientVersion } from '../client-version.js';
import type { Handlers } from '../services.js';

export function web3_clientVersion(): Handlers['web3_clientVersion'] {
  return async () => clientVersion();
}
