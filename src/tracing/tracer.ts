import type { StateManagerInterface } from '@ethereumjs/common';
import type { Address } from '@ethereumjs/util';
import type { TraceHooks } from './trace-hooks.js';

/** What a tracer learns of the transaction before it runs (geth's OnTxStart). */
export interface TracedTransaction {
  from: Address;
  /** absent for a contract creation */
  to?: Address;
  gasLimit: bigint;
  coinbase: Address;
  /** the signers of a set-code transaction's authorizations that recover */
  authorities: Address[];
  /** fork rules the tracers consult */
  rules: { cancun: boolean; prague: boolean };
}

/** How the transaction ended (geth's OnTxEnd receipt): the gas it was charged. */
export interface TracedOutcome {
  gasUsed: bigint;
}

/**
 * One transaction's tracer: hooks fed while it runs, and what it makes of them. `start` runs on the
 * state before the transaction, `finish` on the state after it.
 */
export interface TxTracer {
  readonly hooks: TraceHooks;
  start?(tx: TracedTransaction, state: StateManagerInterface): Promise<void>;
  finish(outcome: TracedOutcome, state: StateManagerInterface): Promise<unknown>;
}
