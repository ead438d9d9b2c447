export { TxPool } from './pool.js';
export { PoolError, PoolErrors, POOL_ERROR_CODE, INVALID_PARAMS_CODE, type PoolErrorKind } from './errors.js';
export { type JournalDb, type JournalOp, type JournalDel, type JournalPut } from './journal.js';
export { effectiveTip, feeCap, tipCap, maxCost } from './fees.js';
export {
  DEFAULT_LIMIT,
  DEFAULT_MAX_TX_BYTES,
  type PoolContent,
  type PoolEnv,
  type PoolEvents,
  type PooledTx,
  type PoolOptions,
  type PoolSize,
  type RemovalReason,
  type SenderContent,
} from './types.js';
