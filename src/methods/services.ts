import type { Block } from '@ethereumjs/block';
import type { RpcMethods } from '../../generated/methods.js';
import type { OpenrpcDocument } from '../../generated/types.js';
import type { CallContext } from '../rpc/dispatch.js';
import type { Chain } from '../chain/chain.js';
import type { DevAccount } from '../chain/dev-accounts.js';
import type { Miner, Preview } from '../producer/miner.js';
import type { MiningControl } from '../producer/mining-control.js';
import type { Executor } from '../state/execution.js';
import type { TxPool } from '../txpool/pool.js';
import type { NodeConfig } from '../config.js';
import type { SyncStatus } from '../chain/sync-status.js';
import type { FilterRegistry } from '../filters/registry.js';
import type { LogQuery } from '../filters/log-query.js';
import type { Subscriptions } from '../filters/subscriptions.js';
import type { BlockClock } from '../producer/block-clock.js';
import type { NextBlock } from '../producer/next-block.js';
import type { Impersonation } from '../dev/impersonation.js';
import type { Snapshots } from '../dev/snapshots.js';
import type { StateEditor } from '../dev/state-edits.js';
import type { StateDumps } from '../dev/state-dumps.js';
import type { GenesisSettings } from '../config.js';
import type { TraceService } from '../tracing/trace-service.js';
import type { Simulator } from '../simulation/simulate.js';
import type { Submission } from '../producer/submission.js';
import type { AnswerCache } from '../rpc/answer-cache.js';

/** The node as a whole, beyond the chain it serves. */
export interface NodeControl {
  /** A random 32-byte id of this run of the chain; a reset draws a new one (hardhat_metadata). */
  readonly instanceId: string;
  /**
   * anvil_reset: back to a genesis — the chain's own (a fork's: its fork block), the dev chain's
   * from new settings, or a fork of a remote at a block (`forking`; an omitted URL is the current
   * fork's, an omitted block the remote's head, or the current one's on the same remote).
   */
  reset(genesis?: Partial<GenesisSettings>, forking?: ForkRequest): Promise<void>;
  /**
   * anvil_setChainId: the head's state moved onto a chain of the same genesis settings but `chainId` (a
   * chain id is its genesis's here), which then serves as after a reset.
   */
  setChainId(chainId: bigint): Promise<void>;
  /** anvil_setRpcUrl: a fork reads another endpoint of its chain, keeping its blocks; a node forking nothing forks the URL. */
  setRpcUrl(url: string): Promise<void>;
  /** anvil_setLoggingEnabled */
  setLogging(on: boolean): void;
  /** the first wait before a fork's remote request is tried again (anvil_nodeInfo shows it) */
  readonly forkRetryBackoffMs: number;
}

/** A fork anvil_reset asks for: the remote (with its HTTP headers), the block. */
export interface ForkRequest {
  url?: string;
  blockNumber?: bigint;
  headers?: Record<string, string>;
}

/**
 * Everything the node gives its methods. Each method's file takes only the members it needs
 * (`Pick<MethodServices, …>`), so its dependencies are visible in its signature.
 */
export interface Services {
  config: NodeConfig;
  chain: Chain;
  accounts: DevAccount[];
  pool: TxPool;
  miner: Miner;
  mining: MiningControl;
  executor: Executor;
  /** replays of mined transactions with a tracer (debug_trace*) */
  tracing: TraceService;
  /** eth_simulateV1's block building on a private state */
  simulator: Simulator;
  sync: SyncStatus;
  /** the block the node would mine next, for the `pending` tag */
  pendingBlock: () => Promise<Block>;
  /** the same block with its transactions' receipts */
  pendingPreview: () => Promise<Preview>;
  /** installed filters and their polls */
  filters: FilterRegistry;
  /** eth_getLogs and the log scans behind filters */
  logQuery: LogQuery;
  /** WebSocket subscriptions */
  subscriptions: Subscriptions;
  /** the OpenRPC document, for rpc.discover (read on the first call) */
  contract: () => OpenrpcDocument;
  /** block timestamps: evm_increaseTime, evm_setNextBlockTimestamp, anvil_setBlockTimestampInterval */
  clock: BlockClock;
  /** the next blocks' coinbase, gas limit and base fee */
  nextBlock: NextBlock;
  /** evm_snapshot, evm_revert */
  snapshots: Snapshots;
  /** anvil_setBalance, anvil_setCode, anvil_setNonce, anvil_setStorageAt */
  stateEdits: StateEditor;
  /** anvil_dumpState, anvil_loadState: the head's state in anvil's format */
  stateDumps: StateDumps;
  /** the accounts eth_sendTransaction may send from without their keys */
  impersonation: Impersonation;
  /** the node itself: its id, reset, logging */
  node: NodeControl;
}

/** What the method layer keeps besides the node's services: made with the method table, one per chain served. */
export interface MethodServices extends Services {
  /** the one way a caller's transaction enters the pool (nonce lock, journal, automine) */
  submission: Submission;
  /** answers kept for reuse, by method, version and params */
  answers: AnswerCache;
}

/** What a method handler is: the contract's params and result, and the transport's call context. */
export type Handlers = RpcMethods<CallContext>;
