import type { Handlers } from '../services.js';

/** Otterscan's API, level 8 (src/ots/explorer.ts answers it). */
const OTS_API_LEVEL = 8;

export function ots_getApiLevel(): Handlers['ots_getApiLevel'] {
  return async () => OTS_API_LEVEL;
}
