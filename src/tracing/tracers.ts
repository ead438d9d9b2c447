import type { TraceConfig } from '../../generated/types.js';
import { CallTracer } from './call-tracer.js';
import { TraceError } from './errors.js';
import { PrestateTracer } from './prestate-tracer.js';
import { StructLogger } from './struct-logger.js';
import type { TxTracer } from './tracer.js';

/** geth's default: one transaction's trace may run this long. */
const DEFAULT_TIMEOUT_MS = 5_000;

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** A Go duration ("300ms", "1m30s") in milliseconds; the contract's pattern has checked its form. */
export function durationMs(text: string): number {
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/([0-9]+(?:\.[0-9]+)?)(ns|us|µs|ms|s|m|h)/g)) total += Number(amount) * UNIT_MS[unit];
  return total;
}

/** How long a trace with `config` may run. */
export const traceTimeoutMs = (config: TraceConfig): number => (config.timeout === undefined ? DEFAULT_TIMEOUT_MS : durationMs(config.timeout));

/** A fresh tracer for one transaction, as `config` asks: the struct logger unless a tracer is named. */
export function createTracer(config: TraceConfig): TxTracer {
  switch (config.tracer) {
    case undefined:
    case '':
      return new StructLogger(config);
    case 'callTracer':
      return new CallTracer(config.tracerConfig);
    case 'prestateTracer':
      return new PrestateTracer(config.tracerConfig);
    default:
      throw new TraceError(`tracer ${String(config.tracer)} not found`);
  }
}
