import type { MethodName } from '../../generated/methods.js';
import { isValidParams, methodNames, paramError } from '../../generated/index.js';
import type { MethodEntry } from '../rpc/dispatch.js';
import { invalidParams } from '../rpc/errors.js';
import { devMethods } from './dev/mining.js';
import { blockMethods } from './eth/blocks.js';
import { chainInfoMethods } from './eth/chain-info.js';
import { executionMethods } from './eth/execution.js';
import { feeMethods } from './eth/fees.js';
import { filterMethods } from './eth/filters.js';
import { stateMethods } from './eth/state.js';
import { submissionMethods } from './eth/submission.js';
import { transactionMethods } from './eth/transactions.js';
import { netMethods } from './net/net.js';
import type { Handlers, Services } from './services.js';
import { txpoolMethods } from './txpool/content.js';

/** Every method of the contract; the type makes a missing or mistyped one a compile error. */
export function implementMethods(services: Services): Handlers {
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
  };
}

/** A method as the dispatcher runs it: params checked against the contract (-32602 naming the rule), then the handler. */
function entryOf<M extends MethodName>(name: M, handler: Handlers[M]): MethodEntry {
  return {
    invoke: (params, ctx) => {
      if (!isValidParams(name, params)) throw invalidParams(paramError(name, params) ?? 'invalid params');
      return handler(params, ctx);
    },
  };
}

/** The dispatcher's table: each contract method by name. */
export function methodTable(methods: Handlers): Map<string, MethodEntry> {
  return new Map(methodNames.map(<M extends MethodName>(name: M) => [name, entryOf(name, methods[name])] as const));
}
