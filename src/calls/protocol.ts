// The messages between the main thread and a call worker (see workers.ts and worker.ts).
import type { JSONHeader } from '@ethereumjs/block';
import type { GethGenesis } from '@ethereumjs/common';
import type { TransactionCall } from '../../generated/types.js';
import type { CallFault } from '../state/execution.js';

export interface WorkerSetup {
  /** the chain's genesis spec: the worker makes the chain's Commons from it */
  genesis: GethGenesis;
}

/** A call or an estimate on the block with this header. */
export interface RunRequest {
  type: 'run';
  id: number;
  kind: 'call' | 'estimate';
  request: TransactionCall;
  header: JSONHeader;
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
