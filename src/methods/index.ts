import type { MethodName } from '../../generated/methods.js';
import { isValidParams, methodNames, paramError } from '../../generated/index.js';
import type { CallContext, MethodEntry } from '../rpc/dispatch.js';
import { invalidParams } from '../rpc/errors.js';
import type { ResultCheck } from '../rpc/result-check.js';
import { anvilAliases } from './dev/anvil-aliases.js';
import { erc20Methods } from './dev/erc20.js';
import { impersonationMethods } from './dev/impersonation.js';
import { rawMethods } from './debug/raw.js';
import { tracingMethods } from './debug/tracing.js';
import { devMethods } from './dev/mining.js';
import { nextBlockMethods } from './dev/next-block.js';
import { nodeMethods } from './dev/node.js';
import { poolControlMethods } from './dev/pool.js';
import { snapshotMethods } from './dev/snapshots.js';
import { stateDumpMethods } from './dev/state-dumps.js';
import { stateEditMethods } from './dev/state-edits.js';
import { timeMethods } from './dev/time.js';
import { blockMethods } from './eth/blocks.js';
import { chainInfoMethods } from './eth/chain-info.js';
import { configMethods } from './eth/config.js';
import { executionMethods } from './eth/execution.js';
import { feeMethods } from './eth/fees.js';
import { signingMethods } from './eth/signing.js';
import { filterMethods } from './eth/filters.js';
import { simulateMethods } from './eth/simulate.js';
import { stateMethods } from './eth/state.js';
import { submissionMethods } from './eth/submission.js';
import { transactionMethods } from './eth/transactions.js';
import { netMethods } from './net/net.js';
import { otsMethods } from './ots/ots.js';
import type { Handlers, Services } from './services.js';
import { testingMethods } from './testing/build-block.js';
import { txpoolMethods } from './txpool/content.js';

/** Every method of the contract; the type makes a missing or mistyped one a compile error. */
export function implementMethods(services: Services): Handlers {
  const methods = {
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
    ...timeMethods(services),
    ...snapshotMethods(services),
    ...stateEditMethods(services),
    ...stateDumpMethods(services),
    ...impersonationMethods(services),
    ...nextBlockMethods(services),
    ...poolControlMethods(services),
    ...nodeMethods(services),
    ...signingMethods(services),
    ...tracingMethods(services),
    ...rawMethods(services),
    ...testingMethods(services),
    ...erc20Methods(services),
    ...otsMethods(services),
  };
  return { ...methods, ...anvilAliases(methods) };
}

/**
 * A method as the dispatcher runs it: params checked against the contract (-32602 naming the rule),
 * then the handler; with `results`, its result checked too (--check-results).
 */
function entryOf<M extends MethodName>(name: M, handler: Handlers[M], results: ResultCheck | undefined): MethodEntry {
  const run = (params: unknown[], ctx: CallContext) => {
    if (!isValidParams(name, params)) throw invalidParams(paramError(name, params) ?? 'invalid params');
    return handler(params, ctx);
  };
  if (results === undefined) return { invoke: run };
  return {
    invoke: async (params, ctx) => {
      const result = await run(params, ctx);
      results.check(name, result);
      return result;
    },
  };
}

/** The dispatcher's table: each contract method by name. */
export function methodTable(methods: Handlers, results?: ResultCheck): Map<string, MethodEntry> {
  return new Map(methodNames.map(<M extends MethodName>(name: M) => [name, entryOf(name, methods[name], results)] as const));
}
