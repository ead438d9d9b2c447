// The services a chain is served with (pool, miner, filters, execution, tracing, dev controls) and the method
// table over them: what node.ts assembles for the chain it starts with, and again for each chain a reset serves.
import type { Block } from '@ethereumjs/block';
import { Address, bytesToHex, createZeroAddress, equalsBytes } from '@ethereumjs/util';
import type { Chain } from './chain/chain.js';
import { deriveAccounts } from './chain/dev-accounts.js';
import type { SyncStatus } from './chain/sync-status.js';
import type { NodeConfig } from './config.js';
import { loadContract } from './contract.js';
import { Impersonation } from './dev/impersonation.js';
import { Snapshots } from './dev/snapshots.js';
import { StateDumps } from './dev/state-dumps.js';
import { StateEditor } from './dev/state-edits.js';
import { LogQuery } from './filters/log-query.js';
import { FilterRegistry } from './filters/registry.js';
import type { Subscriptions } from './filters/subscriptions.js';
import type { Logger } from './log.js';
import { implementMethods, methodTable } from './methods/index.js';
import type { NodeControl, Services } from './methods/services.js';
import { BlockClock } from './producer/block-clock.js';
import { Miner } from './producer/miner.js';
import { MiningControl } from './producer/mining-control.js';
import { NextBlock } from './producer/next-block.js';
import { createDispatcher, type Dispatcher } from './rpc/dispatch.js';
import type { ResultCheck } from './rpc/result-check.js';
import { Simulator } from './simulation/simulate.js';
import { Executor } from './state/execution.js';
import { createChainVM } from './state/vm.js';
import type { Database, DiskDatabase } from './storage/database.js';
import type { RequestGate } from './storage/request-gate.js';
import type { Terminal } from './terminal/terminal.js';
import { TraceService } from './tracing/trace-service.js';
import { TxPool } from './txpool/pool.js';

/** `make`'s value, made on the first call. */
function lazily<T>(make: () => T): () => T {
  let value: { made: T } | undefined;
  return () => (value ??= { made: make() }).made;
}

export const isOnDisk = (db: Database): db is DiskDatabase => 'level' in db;

/** What a chain is served with; anvil_reset replaces the whole of it. */
export interface ChainCore {
  services: Services;
  dispatch: Dispatcher;
}

/** What outlives a reset: the database and its guard, the import status, WebSocket subscriptions, the logger and terminal. */
export interface NodeWide {
  db: Database;
  terminal: Terminal | undefined;
  log: Logger & { setEnabled(on: boolean): void };
  sync: SyncStatus;
  subscriptions: Subscriptions;
  gate: RequestGate;
  results: ResultCheck | undefined;
  control: NodeControl;
}

/** The chain's services on `chain`: pool, miner, filters, dev controls and the method table. */
export async function assembleCore(config: NodeConfig, chain: Chain, mining: { automine: boolean; intervalMs: number }, wide: NodeWide): Promise<ChainCore> {
  const { db, log, sync, subscriptions } = wide;
  const head = () => chain.head();
  const clock = new BlockClock();
  // A chain resumed from a data dir may be ahead of the wall clock (blocks mined faster than one a second).
  clock.landed(head().header.timestamp, false);
  // As in anvil, blocks follow on from the head's time as time passes: --timestamp's genesis, and a
  // fork's head, so a fork of an old block stays in that block's time (an oracle's staleness, a
  // deadline, interest accrued).
  if ((config.timestamp !== undefined && chain.head().header.number === 0n) || chain.fork !== undefined) clock.runFrom(chain.head().header.timestamp);
  const nextBlock = new NextBlock(createZeroAddress());
  const pool = await TxPool.open(db.pool, {
    common: chain.nextCommon(),
    blockGasLimit: () => nextBlock.gasLimitOn(head().header),
    nextBaseFee: () => nextBlock.baseFeeOn(head().header, chain.nextCommon()),
    account: async (address: Address) => {
      const account = await chain.state.snapshot(chain.headStateRoot()).account(address);
      return { nonce: account?.nonce ?? 0n, balance: account?.balance ?? 0n };
    },
  }, { limit: config.txpoolLimit, onListenerError: (error) => log.error('a transaction pool listener failed', error) });
  if (config.gasPrice !== undefined) {
    if (chain.nextCommon().isActivatedEIP(1559)) log.warn(`--gas-price ${config.gasPrice} changes nothing on this chain: EIP-1559's base fee prices its transactions`);
    else pool.minGasPrice = config.gasPrice;
  }
  // A forked chain asks the remote for a transaction it does not hold, but never for one of its own pool's.
  if (chain.fork !== undefined) chain.fork.blocks.isLocal = (hash) => pool.get(bytesToHex(hash)) !== undefined;
  const watch = wide.terminal?.watchMiner((listener) => chain.onBlock(listener));
  // The writer's VM is made when the first block is built: that loads the VM library, which a node only read from never needs.
  const writerVm = () => createChainVM(chain, chain.nextCommon(), chain.state.writer);
  const miner = new Miner(chain, pool, writerVm, { next: nextBlock, clock, log, watch });
  const miningControl = new MiningControl(miner, pool, log, { ...mining, writable: () => !isOnDisk(db) || db.level.fault === undefined });
  // Filters and subscriptions: polled filters persist in LevelDB; both hear of blocks after they land.
  const logQuery = new LogQuery(chain, { maxBlocks: config.logsMaxBlocks, maxResults: config.logsMaxResults });
  const filters = await FilterRegistry.open(db.filters, chain, logQuery, { timeoutMs: config.filterTimeout * 1000, maxFilters: config.maxFilters });
  subscriptions.rebind(chain, logQuery);
  chain.onBlock((block) => {
    filters.blockLanded();
    subscriptions.blockLanded(block);
  });
  chain.onRewind((block) => {
    filters.rewound(block.header.number);
    subscriptions.rewound(block.header.number);
  });
  pool.on('added', (tx) => {
    filters.transactionAdded(tx.hashHex);
    subscriptions.transactionAdded(tx.hashHex);
  });
  // What calls, simulations and traces read of the chain: forks, states (state edits included) and earlier blocks.
  const executionChain = {
    commonAt: (header: { number: bigint; timestamp: bigint }) => chain.commons.at(header),
    stateRootOf: (block: Block) => chain.stateRootOf(block),
    state: chain.state,
    blockByNumber: (n: bigint) => chain.blockByNumber(n),
  };
  const { terminal } = wide;
  const executor = new Executor(executionChain, terminal === undefined ? undefined : { vmMade: (vm) => terminal.watchCalls(vm), callOn: (vm, method) => terminal.callOn(vm, method) });
  const stateEdits = new StateEditor(chain, miner, pool);
  const services: Services = {
    config,
    chain,
    accounts: deriveAccounts(config.mnemonic, config.accounts),
    pool,
    miner,
    mining: miningControl,
    executor,
    simulator: new Simulator(executionChain, config.maxResponseBytes),
    tracing: new TraceService(
      {
        ...executionChain,
        blockByHash: (hash) => chain.blockByHash(hash),
        // Recorded when each block ran, so a replay recovers no signature.
        senders: async (block) => {
          const records = (await chain.blocks.records(block)) ?? [];
          return block.transactions.map((tx, i) => (records[i] === undefined ? tx.getSenderAddress() : new Address(records[i].receipt.sender)));
        },
        findTransaction: async (hash) => {
          const record = await chain.blocks.txRecord(hash);
          if (record === undefined) return undefined;
          // By number where that is its block: a forked chain's remote block is then one fetch, not two (by hash, then by number to tell it is the
          // chain's). Its parent, whose state the replay starts from, comes in the same batch.
          const [canonical] = await Promise.all([chain.blockByNumber(record.blockNumber), record.blockNumber > 0n ? chain.blockByNumber(record.blockNumber - 1n) : undefined]);
          const block = canonical !== undefined && equalsBytes(canonical.hash(), record.blockHash) ? canonical : await chain.blockByHash(record.blockHash);
          return block === undefined ? undefined : { block, index: record.index };
        },
      },
      executor,
      { maxAnswerBytes: config.maxResponseBytes, maxTimeoutMs: config.traceMaxTimeoutMs },
    ),
    sync,
    pendingBlock: () => miner.preview(),
    pendingPreview: () => miner.previewWithReceipts(),
    filters,
    logQuery,
    subscriptions,
    contract: lazily(loadContract),
    clock,
    nextBlock,
    snapshots: new Snapshots({ chain, pool, miner, clock, next: nextBlock }),
    stateEdits,
    stateDumps: new StateDumps(chain, stateEdits),
    impersonation: new Impersonation(config.autoImpersonate),
    node: wide.control,
  };
  return { services, dispatch: createDispatcher(methodTable(implementMethods(services), wide.results), log, { gate: wide.gate }) };
}
