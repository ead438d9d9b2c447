// The messages between the main thread and a call worker (see workers.ts and worker.ts).
import type { JSONHeader } from '@ethereumjs/block';
import type { GethGenesis } from '@ethereumjs/common';
import type { TransactionCall } from '../../generated/types.js';
import type { CallFault } from '../state/execution.js';

/**
 * The main thread sends a block's header with the first call on it, and again once it has sent
 * HEADERS_SENT other headers since; a worker keeps the headers of the twice as many blocks it last
 * ran calls on, so it still has every header the main thread counts on.
 */
export const HEADERS_SENT = 8;
export const HEADERS_KEPT = 2 * HEADERS_SENT;

export interface WorkerSetup {
  /** the chain's genesis spec: the worker makes the chain's Commons from it */
  genesis: GethGenesis;
}

/** A call or an estimate on the block `hash`; its header comes with the first call on that block. */
export interface RunRequest {
  type: 'run';
  id: number;
  kind: 'call' | 'estimate';
  request: TransactionCall;
  hash: string;
  header?: JSONHeader;
}

/** The main thread's answer to a worker's read (see ReadRequest). */
export interface ReadAnswer {
  type: 'read-answer';
  id: number;
  /** an account's RLP (null: no account), storage, code or a block hash (null: no such block) */
  value?: Uint8Array | null;
  error?: string;
}

/** A block landed: the worker's snapshot of `root` derives from its snapshot of `parentRoot`. */
export interface LandedNotice {
  type: 'landed';
  parentRoot: Uint8Array;
  root: Uint8Array;
  /** unprefixed address hex → the account's RLP, or null where the block deleted it */
  changes: [string, Uint8Array | null][];
}

/** The chain's state moved other than by a landed block: drop every snapshot. */
export interface ResetNotice {
  type: 'reset';
}

export type ToWorker = RunRequest | ReadAnswer | LandedNotice | ResetNotice;

/** What a worker's state snapshot or BLOCKHASH needs from the chain, which only the main thread holds. */
export type ReadQuery =
  | { kind: 'account' | 'storage' | 'code'; root: Uint8Array; address: Uint8Array; key?: Uint8Array }
  | { kind: 'blockHash'; number: bigint };

export type ReadRequest = ReadQuery & { type: 'read'; id: number };

export interface RunResult {
  type: 'done';
  id: number;
  /** the call's return data, or the estimate */
  value?: Uint8Array | bigint;
  /** why the call failed (it is thrown as CallFailure on the main thread) */
  fault?: CallFault;
  /** a fault of the worker itself: a bug */
  error?: string;
}

export type FromWorker = { type: 'ready' } | ReadRequest | RunResult;
