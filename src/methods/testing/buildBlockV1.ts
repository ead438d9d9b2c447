import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { buildPayload, rawTransactions } from '../../producer/payload-builder.js';
import type { Handlers, MethodServices } from '../services.js';

export function testing_buildBlockV1({ chain, pool, config }: Pick<MethodServices, 'chain' | 'pool' | 'config'>): Handlers['testing_buildBlockV1'] {
  return ([parentHash, attributes, transactions, extraData]) =>
    buildPayload(chain, (baseFee) => pool.executables(baseFee), {
      parentHash: hexToBytes(parentHash as PrefixedHexString),
      attributes,
      transactions: rawTransactions(transactions),
      extraData: extraData === undefined || extraData === null ? new Uint8Array() : hexToBytes(extraData as PrefixedHexString),
      gasCeiling: config.gasLimit,
    });
}
