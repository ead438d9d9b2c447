import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { buildPayload, rawTransactions } from '../../producer/payload-builder.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'pool' | 'config'>;

export function testingMethods({ chain, pool, config }: Deps): Pick<Handlers, 'testing_buildBlockV1'> {
  return {
    testing_buildBlockV1: ([parentHash, attributes, transactions, extraData]) =>
      buildPayload(chain, (baseFee) => pool.executables(baseFee), {
        parentHash: hexToBytes(parentHash as PrefixedHexString),
        attributes,
        transactions: rawTransactions(transactions),
        extraData: extraData === undefined || extraData === null ? new Uint8Array() : hexToBytes(extraData as PrefixedHexString),
        gasCeiling: config.gasLimit,
      }),
  };
}
