import type { Block } from '@ethereumjs/block';
import type { OpenrpcDocument } from '../../generated/types.js';
import type { Chain } from '../chain/chain.js';
import type { DevAccount } from '../chain/dev-accounts.js';
import type { Miner } from '../producer/miner.js';
import type { MiningControl } from '../producer/mining-control.js';
import type { Executor } from '../state/execution.js';
import type { TxPool } from '../txpool/pool.js';
import type { NodeConfig } from '../config.js';
import type { SyncStatus } from '../chain/sync-status.js';
import type { FilterRegistry } from '../filters/registry.js';
import type { LogQuery } from '../filters/log-query.js';
import type { Subscriptions } from '../filters/subscriptions.js';

/**
 * Everything a method may use. Each method module takes only the members it needs
 * (`Pick<Services, …>`), so its dependencies are visible in its signature.
 */
export interface Services {
  config: NodeConfig;
  chain: Chain;
  accounts: DevAccount[];
  pool: TxPool;
  miner: Miner;
  mining: MiningControl;
  executor: Executor;
  sync: SyncStatus;
  /** the block the node would mine next, for the `pending` tag */
  pendingBlock: () => Promise<Block>;
  /** installed filters and their polls */
  filters: FilterRegistry;
  /** eth_getLogs and the log scans behind filters */
  logQuery: LogQuery;
  /** WebSocket subscriptions */
  subscriptions: Subscriptions;
  /** the OpenRPC document, for rpc.discover (read on the first call) */
  contract: () => OpenrpcDocument;
}
