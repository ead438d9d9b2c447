import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'pool'>;

/** Taking a transaction out of the pool: anvil answers its hash or null, Hardhat whether it was there. */
export function poolControlMethods({ chain, pool }: Deps): Pick<
  Handlers, 'anvil_dropTransaction' | 'hardhat_dropTransaction'> {
  return {
    anvil_dropTransaction: async ([hash]) => (await pool.drop(hash))?.hashHex ?? null,
    hardhat_dropTransaction: async ([hash]) => {
      if ((await pool.drop(hash)) !== undefined) return true;
      if ((await chain.blocks.txRecord(hexToBytes(hash as PrefixedHexString))) !== undefined) {
        throw invalidParams(`transaction ${hash.toLowerCase()} cannot be dropped because it is already mined`);
      }
      return false;
    },
  };
}
