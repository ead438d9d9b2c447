import type { TraceConfig } from '../../generated/types.js';
import { AnswerBudget } from '../format/answer-budget.js';
import { CallTracer } from './call-tracer.js';
import { TraceError } from './errors.js';
import { PrestateTracer } from './prestate-tracer.js';
import { STRUCT_TRACE_ADVICE, StructLogger } from './struct-logger.js';
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

/** How long a trace with `config` may run: what it asks (geth's 5 s if nothing), at most the node's `ceilingMs`. */
export function traceTimeoutMs(config: TraceConfig, ceilingMs: number): { ms: number; capped: boolean } {
  const asked = config.timeout === undefined ? DEFAULT_TIMEOUT_MS : durationMs(config.timeout);
  return asked > ceilingMs ? { ms: ceilingMs, capped: true } : { ms: asked, capped: false };
}

/** The budget of a trace answer of at most `limit` bytes, with the advice its refusal gives for `config`'s tracer. */
export function traceBudget(config: TraceConfig, limit: number): AnswerBudget {
  const structLogger = config.tracer === undefined || config.tracer === '';
  return new AnswerBudget(limit, structLogger ? 'the struct trace' : `the ${config.tracer} trace`, structLogger ? STRUCT_TRACE_ADVICE : undefined);
}

/** A fresh tracer for one transaction, as `config` asks: the struct logger unless a tracer is named. Its JSON counts against `budget`. */
export function createTracer(config: TraceConfig, budget?: AnswerBudget): TxTracer {
  switch (config.tracer) {
    case undefined:
    case '':
      return new StructLogger(config, budget);
    case 'callTracer':
      return new CallTracer(config.tracerConfig, budget);
    case 'prestateTracer':
      return new PrestateTracer(config.tracerConfig, budget);
    default:
      throw new TraceError(`tracer ${String(config.tracer)} not found`);
  }
}
