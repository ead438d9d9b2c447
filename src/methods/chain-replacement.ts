import { serverError } from '../rpc/errors.js';
import type { Services } from './services.js';

/**
 * The largest chain id MetaMask accepts: a legacy signature's v (2·id + 35 or 36) stays a number
 * JSON and JavaScript hold exactly (clients keep chain ids and v as numbers; past it, signing fails).
 */
export const MAX_CHAIN_ID = 4_503_599_627_370_476n;

/** A chain is not replaced (anvil_reset, anvil_setChainId) while an import runs into it. */
export function refuseWhileImporting({ sync }: Pick<Services, 'sync'>): void {
  if (sync.status() !== false) throw serverError('cannot reset while a chain import runs; wait until eth_syncing answers false');
}
