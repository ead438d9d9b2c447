import { bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { Handlers, MethodServices } from '../services.js';

export function debug_getRawTransaction({ chain, pool }: Pick<MethodServices, 'chain' | 'pool'>): Handlers['debug_getRawTransaction'] {
  return async ([hash]) => {
    const record = await chain.blocks.txRecord(hexToBytes(hash as PrefixedHexString));
    const block = record === undefined ? undefined : await chain.blockByHash(record.blockHash);
    const mined = block?.transactions[record!.index];
    if (mined !== undefined) return bytesToHex(mined.serialize());
    const pooled = pool.get(hash.toLowerCase());
    return pooled === undefined ? null : bytesToHex(pooled.tx.serialize());
  };
}
