import { bytesToHex } from '@ethereumjs/util';
import { toQuantity } from '../../format/quantity.js';
import { runMetadata } from '../hardhat/metadata.js';
import type { Handlers, MethodServices } from '../services.js';

/** hardhat_metadata's members as anvil answers them: `forkedNetwork` null when nothing is forked, and the live snapshots. */
export function anvil_metadata(services: Pick<MethodServices, 'chain' | 'node' | 'snapshots'>): Handlers['anvil_metadata'] {
  return async () => {
    const metadata = runMetadata(services);
    const snapshots = Object.fromEntries(services.snapshots.live().map(({ id, head }) => [toQuantity(id), [Number(head.header.number), bytesToHex(head.hash())] as [number, string]]));
    return { ...metadata, forkedNetwork: metadata.forkedNetwork ?? null, snapshots };
  };
}
