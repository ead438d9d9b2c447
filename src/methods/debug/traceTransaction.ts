import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { Handlers, MethodServices } from '../services.js';

export function debug_traceTransaction({ tracing }: Pick<MethodServices, 'tracing'>): Handlers['debug_traceTransaction'] {
  return ([hash, config]) => tracing.traceTransaction(hexToBytes(hash as PrefixedHexString), config);
}
