// The one place where the domain's errors become JSON-RPC errors: each kind gets its code (geth's,
// where geth has one), its message and its data. Anything else that escapes a method is a fault.
import { bytesToHex } from '@ethereumjs/util';
import { UnknownBlockError } from '../chain/block-tags.js';
import { ChainReplacedError } from '../chain/chain.js';
import { TypedDataError } from '../crypto/message-signing.js';
import { Erc20SlotNotFound } from '../dev/erc20-balance.js';
import { AnswerTooLarge } from '../format/answer-budget.js';
import { FilterError, type FilterErrorKind } from '../filters/errors.js';
import { CallFailure } from '../state/execution.js';
import { OverrideError } from '../state/overrides.js';
import { revertReason } from '../state/revert.js';
import { StorageDamage } from '../storage/damage.js';
import { StorageFault } from '../storage/storage-fault.js';
import { MiningStopped } from '../producer/miner.js';
import { PayloadError } from '../producer/payload-builder.js';
import { SimulationError, type SimulationErrorKind } from '../simulation/errors.js';
import { TraceError } from '../tracing/errors.js';
import { PoolError } from '../txpool/errors.js';
import { ForkStateMissing } from '../fork/proof-records.js';
import { RemoteError } from '../fork/remote.js';
import { ForkUnavailable } from '../fork/unavailable.js';
import { ErrorCode, RpcError, executionReverted, invalidParams, responseTooLarge, serverError } from './errors.js';

const FILTER_CODES: Record<FilterErrorKind, number> = {
  'invalid-criteria': ErrorCode.InvalidParams,
  'not-found': ErrorCode.Server,
  'unknown-block': ErrorCode.Server,
  'limit-exceeded': ErrorCode.LimitExceeded,
};

const SIMULATION_CODES: Record<SimulationErrorKind, number> = {
  'nonce-too-low': -38010,
  'nonce-too-high': -38011,
  'base-fee-too-low': -38012,
  'intrinsic-gas': -38013,
  'insufficient-funds': -38014,
  'block-gas-limit-reached': -38015,
  'block-number-invalid': -38020,
  'block-timestamp-invalid': -38021,
  'max-init-code-size-exceeded': -38025,
  'client-limit-exceeded': ErrorCode.ClientLimitExceeded,
  'invalid-params': ErrorCode.InvalidParams,
  refused: ErrorCode.Server,
  // geth answers a transaction it cannot include for an unnamed reason with -32603.
  unclassified: ErrorCode.Internal,
};

/** A failed call as geth answers it: code 3 with the revert data and reason, or -32000 naming the fault. */
function callError({ fault }: CallFailure): RpcError {
  if (fault.kind === 'revert') return executionReverted(bytesToHex(fault.data), revertReason(fault.data));
  return serverError(fault.message);
}

/** The JSON-RPC error for `error`, or undefined when it is not one the domain raises on purpose. */
export function toRpcError(error: unknown): RpcError | undefined {
  if (error instanceof RpcError) return error;
  if (error instanceof PoolError) return error.kind === 'invalid-transaction' ? invalidParams(error.message) : serverError(error.message);
  if (error instanceof CallFailure) return callError(error);
  if (error instanceof UnknownBlockError) return serverError(error.message);
  if (error instanceof FilterError) return new RpcError(FILTER_CODES[error.kind], error.message, error.data);
  if (error instanceof TypedDataError) return invalidParams(error.message);
  if (error instanceof ChainReplacedError || error instanceof Erc20SlotNotFound) return serverError(error.message);
  // A store closed under a request: a fork's cache, which anvil_reset closes once the new chain serves.
  if ((error as { code?: unknown } | undefined)?.code === 'LEVEL_DATABASE_NOT_OPEN') return serverError(new ChainReplacedError().message);
  // The storage refused a write (or every request, while it re-opens): the caller learns why.
  if (error instanceof StorageFault) return serverError(error.message);
  // A record read back is not what was written: the caller learns which; the node is unhealthy from then on.
  if (error instanceof StorageDamage) return serverError(error.message);
  if (error instanceof TraceError || error instanceof OverrideError || error instanceof PayloadError || error instanceof MiningStopped) return serverError(error.message);
  if (error instanceof SimulationError) return new RpcError(SIMULATION_CODES[error.kind], error.message);
  // A fork's remote failed (retries spent) or offline lacks what a read needs: never answered as zeros.
  if (error instanceof RemoteError || error instanceof ForkStateMissing || error instanceof ForkUnavailable) return serverError(error.message);
  if (error instanceof AnswerTooLarge) return responseTooLarge(error.message, error.limit);
  return undefined;
}
