import type { RpcMethods } from '../../generated/methods.js';
import { methodNames, paramError } from '../../generated/index.js';
import type { CallContext, MethodEntry } from '../rpc/dispatch.js';
import { impersonationMethods } from './dev/impersonation.js';
import { devMethods } from './dev/mining.js';
import { nextBlockMethods } from './dev/next-block.js';
import { nodeMethods } from './dev/node.js';
import { poolControlMethods } from './dev/pool.js';
import { snapshotMethods } from './dev/snapshots.js';
import { stateEditMethods } from './dev/state-edits.js';
import { timeMethods } from './dev/time.js';
import { blockMethods } from './eth/blocks.js';
import { chainInfoMethods } from './eth/chain-info.js';
import { executionMethods } from './eth/execution.js';
import { feeMethods } from './eth/fees.js';
import { signingMethods } from './eth/signing.js';
import { filterMethods } from './eth/filters.js';
import { stateMethods } from './eth/state.js';
import { submissionMethods } from './eth/submission.js';
import { transactionMethods } from './eth/transactions.js';
import { netMethods } from './net/net.js';
import type { Services } from './services.js';
import { txpoolMethods } from './txpool/content.js';

/** Every method of the contract; the type makes a missing or mistyped one a compile error. */
export function implementMethods(services: Services): RpcMethods {
  return {
    ...blockMethods(services),
    ...stateMethods(services),
    ...transactionMethods(services),
    ...chainInfoMethods(services),
    ...executionMethods(services),
    ...feeMethods(services),
    ...submissionMethods(services),
    ...filterMethods(services),
    ...txpoolMethods(services),
    ...netMethods(services),
    ...devMethods(services),
    ...timeMethods(services),
    ...snapshotMethods(services),
    ...stateEditMethods(services),
    ...impersonationMethods(services),
    ...nextBlockMethods(services),
    ...poolControlMethods(services),
    ...nodeMethods(services),
    ...signingMethods(services),
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
