import type { Block } from '@ethereumjs/block';
import { randomBytes } from 'node:crypto';
import { Address, bytesToHex, createZeroAddress } from '@ethereumjs/util';
import { Chain, GenesisMismatchError } from './chain/chain.js';
import { deriveAccounts } from './chain/dev-accounts.js';
import type { NodeGenesis } from './chain/genesis.js';
import { BlockClock } from './producer/block-clock.js';
import { Miner } from './producer/miner.js';
import { MiningControl } from './producer/mining-control.js';
import { NextBlock } from './producer/next-block.js';
import { SyncStatus } from './chain/sync-status.js';
import { ConfigError, FORK_DEFAULTS, type ForkConfig, type GenesisSettings, type NodeConfig } from './config.js';
import { publicUrl } from './fork/url.js';
import { nativeCryptoStatus } from './crypto/native.js';
import { loadContract } from './contract.js';
import { Impersonation } from './dev/impersonation.js';
import { Snapshots } from './dev/snapshots.js';
import { StateDumps } from './dev/state-dumps.js';
import { dumpStateFlag, loadStateFlag } from './dump/state-file.js';
import { StateEditor } from './dev/state-edits.js';
import { switchable, type Logger } from './log.js';
import { implementMethods, methodTable } from './methods/index.js';
import type { ForkRequest, NodeControl, Services } from './methods/services.js';
import { createDispatcher, type Dispatcher } from './rpc/dispatch.js';
import { ResultCheck } from './rpc/result-check.js';
import { Executor } from './state/execution.js';
import { TraceService } from './tracing/trace-service.js';
import { Simulator } from './simulation/simulate.js';
import { createChainVM } from './state/vm.js';
import { openDatabase, openMemoryDatabase, type Database, type DiskDatabase, type OpenOptions } from './storage/database.js';
import { FailStop } from './storage/fail-stop.js';
import { headProblem } from './chain/head-check.js';
import { RequestGate } from './storage/request-gate.js';
import { DataDirRefused } from './storage/storage-fault.js';
import { creationUndo, wipeDataDir } from './storage/wipe.js';
import { Terminal } from './terminal/terminal.js';
import { DeferredApp } from './transport/deferred-app.js';
import { acceptedHosts } from './transport/hosts.js';
import { DEFAULT_CORS_ORIGINS } from './transport/browser-guards.js';
import { startHttpServer, type HttpServerHandle } from './transport/http.js';
import { listenRefusal } from './transport/listen-failure.js';
import { refusalLog } from './transport/refusal-log.js';
import { playgroundRoutes } from './transport/playground.js';
import { TxPool } from './txpool/pool.js';
import { devSpec, openFirstChain, openFork, readGenesisFlag, RESUMED_OFFLINE } from './node-chain.js';
import { LogQuery } from './filters/log-query.js';
import { FilterRegistry } from './filters/registry.js';
import { Subscriptions } from './filters/subscriptions.js';
import { createWsServer, type WsServerHandle } from './transport/ws.js';
import { Mutex } from './txpool/mutex.js';

export interface RunningNode {
  url: string;
  port: number;
  config: NodeConfig;
  /** the services of the chain being served (a reset replaces them) */
  readonly services: Services;
  /** true when the chain is the dev chain (its accounts' keys may be shown) */
  readonly devChain: boolean;
  /** The database's fail-stop: its health, and recovery after a failed write (none for a chain in memory). */
  storage?: FailStop;
  /** the Host headers the node accepts */
  acceptedHosts: readonly string[];
  /** With --check-results: the results that broke their schema so far. */
  resultCheck: ResultCheck | undefined;
  /** the WebSocket server: its open connections and the output they hold */
  websockets: WsServerHandle;
  close(): Promise<void>;
}

export interface StartOptions {
  /** How the database is made (tests inject stores whose writes fail). */
  storage?: OpenOptions;
  /** Where the terminal's lines go (requests, mined transactions, console.log); none prints nothing. */
  terminal?: (text: string) => void;
}

/** `make`'s value, made on the first call. */
function lazily<T>(make: () => T): () => T {
  let value: { made: T } | undefined;
  return () => (value ??= { made: make() }).made;
}

/**
 * Composition root: HTTP port → database → chain → pool → miner → methods. What can refuse the
 * start without writing comes first (the genesis file, then the port, held from then on), so a
 * refused start leaves no data dir behind; one that fails later removes what it created.
 */
export async function startNode(config: NodeConfig, log: Logger, options: StartOptions = {}): Promise<RunningNode> {
  const given = config.genesis === undefined ? undefined : await readGenesisFlag(config.genesis);
  const app = new DeferredApp();
  const hosts = acceptedHosts(config.host, config.allowedHosts);
  const server = await listen(config, log, app, hosts);
  let db: Database | undefined;
  let undo = async (): Promise<void> => {};
  try {
    if (config.dataDir === undefined) {
      db = await openMemoryDatabase();
    } else {
      if (config.fresh) await wipeDataDir(config.dataDir);
      undo = creationUndo(config.dataDir);
      db = await openDatabase(config.dataDir, options.storage);
    }
    return await assemble(config, log, { db, server, app, hosts, terminal: options.terminal }, given);
  } catch (error) {
    app.fail();
    await server.close();
    await db?.close();
    await undo();
    if (error instanceof GenesisMismatchError) throw new ConfigError(error.message);
    if (error instanceof DataDirRefused && db !== undefined) throw new DataDirRefused(`the data dir ${config.dataDir}: ${error.message}`);
    throw error;
  }
}

/** Takes the port, serving `app` once it is resolved; a port that cannot be taken is a ListenRefused. */
async function listen(config: NodeConfig, log: Logger, app: DeferredApp, hosts: readonly string[]): Promise<HttpServerHandle> {
  try {
    return await startHttpServer({
      host: config.host,
      port: config.port,
      invoke: app.invoke,
      log,
      allowedHosts: hosts,
      corsOrigins: [...DEFAULT_CORS_ORIGINS, ...config.cors],
      headersTimeoutMs: config.httpHeaderTimeoutMs,
      requestTimeoutMs: config.httpReadTimeoutMs,
      maxConnections: config.maxConnections,
      maxResultBytes: config.maxResponseBytes,
      onUpgrade: app.onUpgrade,
      onRefused: refusalLog(log),
      routes: playgroundRoutes(),
      health: app.health,
    });
  } catch (error) {
    throw listenRefusal(error, config.host, config.port) ?? error;
  }
}

/** What startNode made before the chain: the database, the server holding the port, and where requests go once served. */
interface Parts {
  db: Database;
  server: HttpServerHandle;
  app: DeferredApp;
  hosts: readonly string[];
  terminal?: (text: string) => void;
}

const isOnDisk = (db: Database): db is DiskDatabase => 'level' in db;

/** What a chain is served with; anvil_reset replaces the whole of it. */
interface ChainCore {
  services: Services;
  dispatch: Dispatcher;
}

/** What outlives a reset: the database and its guard, the import status, WebSocket subscriptions, the logger and terminal. */
interface NodeWide {
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
async function assembleCore(config: NodeConfig, chain: Chain, mining: { automine: boolean; intervalMs: number }, wide: NodeWide): Promise<ChainCore> {
  const { db, log, sync, subscriptions } = wide;
  const head = () => chain.head();
  const clock = new BlockClock();
  // A chain resumed from a data dir may be ahead of the wall clock (blocks mined faster than one a second).
  clock.landed(head().header.timestamp, false);
  // --timestamp: as in anvil, blocks follow on from the genesis block's time as time passes.
  if (config.timestamp !== undefined && chain.head().header.number === 0n) clock.increase(chain.head().header.timestamp - clock.now());
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
          const block = record === undefined ? undefined : await chain.blockByHash(record.blockHash);
          return block === undefined ? undefined : { block, index: record!.index };
        },
      },
      executor,
      { maxAnswerBytes: config.maxResponseBytes, maxTimeoutMs: config.traceMaxTimeoutMs },
    ),
    sync,
    pendingBlock: () => miner.preview(),
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

async function assemble(config: NodeConfig, baseLog: Logger, { db, server, app, hosts, terminal: write }: Parts, given: NodeGenesis | undefined): Promise<RunningNode> {
  let settings: NodeConfig = config;
  const log = switchable(baseLog);
  const terminal = write === undefined ? undefined : new Terminal(write, undefined, config.json);
  const resets = new Mutex();
  let instanceId = bytesToHex(randomBytes(32));
  const control: NodeControl = {
    get instanceId() {
      return instanceId;
    },
    reset: (genesis, forking) => resets.run(() => (forking !== undefined || (genesis === undefined && core.services.chain.fork !== undefined) ? resetFork(forking ?? {}) : reset(genesis))),
    setChainId: (chainId) => resets.run(() => moveToChainId(chainId)),
    setLogging: (on) => {
      log.setEnabled(on);
      terminal?.setEnabled(on);
    },
    get forkRetryBackoffMs() {
      return settings.fork?.backoffMs ?? FORK_DEFAULTS.backoffMs;
    },
  };
  db.damage.onFound((damage) => log.error(damage.message));
  const { chain: firstChain, devChain: startedDev } = await openFirstChain(config, db, given, log);
  let devChain = startedDev;
  const wide: NodeWide = {
    db,
    terminal,
    log,
    sync: new SyncStatus(),
    subscriptions: new Subscriptions(firstChain, new LogQuery(firstChain, { maxBlocks: config.logsMaxBlocks, maxResults: config.logsMaxResults }), log, { maxPerConnection: config.maxFilters }),
    gate: new RequestGate(),
    results: config.checkResults ? new ResultCheck(log) : undefined,
    control,
  };
  let core = await assembleCore(config, firstChain, { automine: config.mining && config.blockTime === 0, intervalMs: config.mining ? Math.round(config.blockTime * 1000) : 0 }, wide);

  /**
   * Replaces the served chain with the one `make` opens (its settings `next`), and a new set of
   * services serves it. The old chain, pool and filters stop writing first, and its fork's cache
   * closes (a fork of the same block opens it again); `make` replaces the data dir's chain in one
   * atomic batch. When it fails the data dir still holds the old chain, which serves again.
   */
  async function replaceChain(next: NodeConfig, make: (old: Services) => Promise<Chain>): Promise<void> {
    const old = core.services;
    const mining = { automine: old.mining.isAutomine, intervalMs: old.mining.intervalMs };
    old.mining.stop();
    await old.filters.close();
    let replaced: Chain | undefined;
    try {
      await old.miner.exclusive(() =>
        old.pool.retireAfter(async () => {
          try {
            await old.chain.fork?.store.close();
            old.chain.fork?.remote?.close();
            replaced = await make(old);
          } finally {
            old.chain.retire();
          }
        }),
      );
    } finally {
      const chain = replaced ?? (await openFirstChain({ ...settings, genesisFlagsGiven: false }, db, undefined, log)).chain;
      core = await assembleCore(replaced === undefined ? settings : next, chain, mining, wide);
    }
    settings = next;
    instanceId = bytesToHex(randomBytes(32));
  }

  /** anvil_reset: back to a genesis, the same one or one from new dev genesis settings (Chain.replace). */
  async function reset(genesis?: Partial<GenesisSettings>): Promise<void> {
    const next: NodeConfig = genesis === undefined ? settings : { ...settings, ...genesis, fork: undefined };
    await replaceChain(next, (old) => Chain.replace(db, genesis === undefined ? (old.chain.spec as NodeGenesis) : devSpec(next), [db.pool, db.filters]));
    if (genesis !== undefined) devChain = true;
    log.info(`chain reset to genesis ${bytesToHex(core.services.chain.genesis.hash())}`);
  }

  /**
   * anvil_setChainId: the head's state, dumped, becomes the state of the same genesis under `chainId`
   * (Chain.replace, as a reset), then loaded back as one state edit.
   */
  async function moveToChainId(chainId: bigint): Promise<void> {
    const state: Uint8Array[] = [];
    for await (const piece of core.services.stateDumps.dump()) state.push(Buffer.from(piece));
    const spec = core.services.chain.spec as NodeGenesis;
    const next = { ...settings, chainId };
    await replaceChain(next, () => Chain.replace(db, { ...spec, config: { ...spec.config, chainId: Number(chainId) } }, [db.pool, db.filters]));
    // Its transactions were signed for the old id: the dump is this node's own, not another chain's.
    await core.services.stateDumps.load((async function* () {
      yield* state;
    })(), { ownChain: true });
    log.info(`chain id set to ${chainId}: the state moved onto genesis ${bytesToHex(core.services.chain.genesis.hash())}`);
  }

  /**
   * anvil_reset to a fork: the remote (the current fork's unless a URL is given) at a block (the
   * current fork's on the same remote, else the remote's head unless one is given). A fork of the
   * block the node forks already reads its cache: nothing fetched before is fetched again. The
   * data dir's chain is replaced in the batch that writes the fork block.
   */
  async function resetFork(forking: ForkRequest): Promise<void> {
    const current = core.services.chain.fork;
    const sameRemote = forking.url === undefined || forking.url === settings.fork?.url;
    const fork: ForkConfig = {
      ...(settings.fork ?? RESUMED_OFFLINE),
      url: forking.url ?? settings.fork?.url,
      headers: forking.headers ?? (sameRemote ? (settings.fork?.headers ?? {}) : {}),
      offline: sameRemote ? (settings.fork?.offline ?? true) : false,
      blockNumber: forking.blockNumber ?? (sameRemote ? current?.info.number : undefined),
      remoteChainId: sameRemote ? (current?.info.remoteChainId ?? settings.fork?.remoteChainId) : undefined,
    };
    // The same remote at the same block: its fork block is in the fork's cache, nothing need be asked.
    const known = sameRemote && current !== undefined && fork.blockNumber === current.info.number ? { chainId: current.info.remoteChainId, number: current.info.number, hash: bytesToHex(current.info.hash) } : undefined;
    const next = { ...settings, fork };
    await replaceChain(next, async (old) => openFork(db, fork, undefined, next, log, { replace: await old.chain.blocks.clearOps([db.pool, db.filters]), known }));
    devChain = true;
    log.info(`chain reset to a fork of ${fork.url === undefined ? 'the cache' : publicUrl(fork.url)} at block ${core.services.chain.genesis.header.number}`);
  }

  // A chain in memory has no disk to fail: no fail-stop.
  const storage = isOnDisk(db)
    ? new FailStop({
        db,
        gate: wide.gate,
        quiesce: (task) =>
          core.services.miner.exclusive(async () => {
            await wide.subscriptions.idle();
            return task();
          }),
        check: () => headProblem(db, core.services.chain.head(), core.services.chain.fork?.base),
        recovered: () => core.services.mining.resume(),
        log,
      })
    : undefined;
  const toCore: Dispatcher = (method, params, ctx) => core.dispatch(method, params, ctx);
  const dispatch = terminal === undefined ? toCore : terminal.dispatcher(toCore);
  const ws = createWsServer({
    invoke: dispatch,
    log,
    maxBacklogBytes: config.wsMaxBacklog,
    maxTotalBacklogBytes: config.wsMaxBacklogTotal,
    maxResultBytes: config.maxResponseBytes,
    onClose: (connection) => {
      wide.subscriptions.dropOwner(connection);
      core.services.filters.dropOwner(connection);
    },
  });
  app.resolve({
    invoke: dispatch,
    onUpgrade: ws.onUpgrade,
    health: async () => {
      const head = core.services.chain.head();
      const state = {
        number: Number(head.header.number),
        hash: bytesToHex(head.hash()),
        ...(wide.results !== undefined && { resultViolations: wide.results.violations }),
      };
      const health = storage?.health() ?? { ok: true };
      if (!health.ok) return { ok: false, ...state, error: health.error };
      // Damage a read met stays: the data dir must be restored, which the node cannot do itself.
      const damage = db.damage.first;
      return damage === undefined ? { ok: true, ...state } : { ok: false, ...state, error: damage.message };
    },
  });
  if (config.loadState !== undefined) await loadStateFlag(core.services.stateDumps, config.loadState);
  // Transactions journaled before a restart are mined as if they had just arrived.
  core.services.mining.resume();
  log.debug(`serving chain ${firstChain.commons.base.chainId()} at ${server.url}, head ${firstChain.head().header.number}`);
  log.debug(nativeCryptoStatus());

  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    port: server.port,
    config,
    get services() {
      return core.services;
    },
    get devChain() {
      return devChain;
    },
    storage,
    acceptedHosts: hosts,
    resultCheck: wide.results,
    websockets: ws,
    close: () =>
      (closing ??= (async () => {
        await resets.run(async () => {
          const { mining, miner, filters } = core.services;
          // A run of blocks (anvil_mine) ends at its next landed batch, and its answer goes out
          // (a turn of the event loop writes it), before the port closes.
          miner.stop();
          mining.stop();
          await miner.idle();
          await new Promise((resolve) => setImmediate(resolve));
          await storage?.close();
          ws.close();
          await server.close();
          await miner.idle();
          if (config.dumpState !== undefined) await dumpStateFlag(core.services.stateDumps, config.dumpState, log);
          await wide.subscriptions.idle();
          await filters.close();
          await terminal?.flush();
          await core.services.chain.fork?.store.close();
          core.services.chain.fork?.remote?.close();
          await db.close();
        });
      })()),
  };
}

