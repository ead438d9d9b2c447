import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

/** Takes a transaction out of the pool: whether it was there, and -32602 for one already mined (as Hardhat answers). */
export function hardhat_dropTransaction({ chain, pool }: Pick<MethodServices, 'chain' | 'pool'>): Handlers['hardhat_dropTransaction'] {
  return async ([hash]) => {
    if ((await pool.drop(hash)) !== undefined) return true;
    if ((await chain.blocks.txRecord(hexToBytes(hash as PrefixedHexString))) !== undefined) {
      throw invalidParams(`transaction ${hash.toLowerCase()} cannot be dropped because it is already mined`);
    }
    return false;
  };
}
