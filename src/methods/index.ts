import type { RpcMethods } from '../../generated/methods.js';
import { methodNames, paramError } from '../../generated/index.js';
import type { CallContext, MethodEntry } from '../rpc/dispatch.js';
import { rawMethods } from './debug/raw.js';
import { tracingMethods } from './debug/tracing.js';
import { devMethods } from './dev/mining.js';
import { blockMethods } from './eth/blocks.js';
import { chainInfoMethods } from './eth/chain-info.js';
import { configMethods } from './eth/config.js';
import { executionMethods } from './eth/execution.js';
import { feeMethods } from './eth/fees.js';
import { filterMethods } from './eth/filters.js';
import { simulateMethods } from './eth/simulate.js';
import { stateMethods } from './eth/state.js';
import { submissionMethods } from './eth/submission.js';
import { transactionMethods } from './eth/transactions.js';
import { netMethods } from './net/net.js';
import type { Services } from './services.js';
import { testingMethods } from './testing/build-block.js';
import { txpoolMethods } from './txpool/content.js';

/** Every method of the contract; the type makes a missing or mistyped one a compile error. */
export function implementMethods(services: Services): RpcMethods {
  return {
    ...blockMethods(services),
    ...stateMethods(services),
    ...transactionMethods(services),
    ...chainInfoMethods(services),
    ...configMethods(services),
    ...executionMethods(services),
    ...simulateMethods(services),
    ...feeMethods(services),
    ...submissionMethods(services),
    ...filterMethods(services),
    ...txpoolMethods(services),
    ...netMethods(services),
    ...devMethods(services),
    ...tracingMethods(services),
    ...rawMethods(services),
    ...testingMethods(services),
  };
}

/** The dispatcher's table: each contract method with its generated param validator. */
export function methodTable(methods: RpcMethods): Map<string, MethodEntry> {
  return new Map(
    methodNames.map((name) => [
      name,
      {
        validate: (params: unknown[]) => paramError(name, params),
        // The context reaches methods that need the connection (eth_subscribe); the rest ignore it.
        handle: (params: unknown[], ctx: CallContext) => (methods[name] as unknown as (p: unknown[], c: CallContext) => Promise<unknown>)(params, ctx),
      },
    ]),
  );
}
