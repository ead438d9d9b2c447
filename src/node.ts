import { readFile } from 'node:fs/promises';
import { bytesToHex, createZeroAddress, type Address } from '@ethereumjs/util';
import { Chain, GenesisMismatchError } from './chain/chain.js';
import { deriveAccounts } from './chain/dev-accounts.js';
import { devGenesis } from './chain/dev-genesis.js';
import type { NodeGenesis } from './chain/genesis.js';
import { Miner } from './producer/miner.js';
import { MiningControl } from './producer/mining-control.js';
import { SyncStatus } from './chain/sync-status.js';
import { ConfigError, type NodeConfig } from './config.js';
import { nativeCryptoStatus } from './crypto/native.js';
import { loadContract } from './contract.js';
import type { Logger } from './log.js';
import { baseFeeAfter } from './fees/fees.js';
import { implementMethods, methodTable } from './methods/index.js';
import type { Services } from './methods/services.js';
import { createDispatcher } from './rpc/dispatch.js';
import { Executor } from './state/execution.js';
import { createChainVM } from './state/vm.js';
import { openDatabase, type Database, type DiskDatabase, type OpenOptions } from './storage/database.js';
import { FailStop } from './storage/fail-stop.js';
import { headProblem } from './chain/head-check.js';
import { RequestGate } from './storage/request-gate.js';
import { DataDirRefused } from './storage/storage-fault.js';
import { startHttpServer, type HttpServerHandle } from './transport/http.js';
import { playgroundRoutes } from './transport/playground.js';
import { TxPool } from './txpool/pool.js';
import { LogQuery } from './filters/log-query.js';
import { FilterRegistry } from './filters/registry.js';
import { Subscriptions } from './filters/subscriptions.js';
import { createWsServer, type WsServerHandle } from './transport/ws.js';
import type { JournalDb } from './txpool/journal.js';

export interface RunningNode {
  url: string;
  port: number;
  config: NodeConfig;
  services: Services;
  /** true when the chain is the dev chain (its accounts' keys may be shown) */
  devChain: boolean;
  /** The database's fail-stop: its health, and recovery after a failed write. */
  storage: FailStop;
  /** the WebSocket server: its open connections and the output they hold */
  websockets: WsServerHandle;
  close(): Promise<void>;
}

export interface StartOptions {
  /** How the database is made (tests inject stores whose writes fail). */
  storage?: OpenOptions;
}

async function readGenesisFlag(path: string): Promise<NodeGenesis> {
  try {
    const spec: NodeGenesis = JSON.parse(await readFile(path, 'utf8'));
    return spec;
  } catch (error) {
    throw new ConfigError(`cannot read --genesis ${path}: ${(error as Error).message}`);
  }
}

async function chooseGenesis(config: NodeConfig, db: Database, given: NodeGenesis | undefined): Promise<{ spec: NodeGenesis; devChain: boolean }> {
  if (given !== undefined) return { spec: given, devChain: false };
  // Started without genesis flags on an existing data dir: resume whatever chain it holds.
  const stored = config.genesisFlagsGiven ? undefined : await Chain.storedGenesisSpec(db);
  if (stored !== undefined) return { spec: stored, devChain: stored.evmNodeDev === true };
  const accounts = deriveAccounts(config.mnemonic, config.accounts).map((a) => a.address);
  const spec = devGenesis({ chainId: config.chainId, hardfork: config.hardfork, accounts, balance: config.balance, gasLimit: config.gasLimit });
  return { spec: { ...spec, evmNodeDev: true }, devChain: true };
}

/** `make`'s value, made on the first call. */
function lazily<T>(make: () => T): () => T {
  let value: { made: T } | undefined;
  return () => (value ??= { made: make() }).made;
}

/** Composition root: database → chain → pool → miner → methods → HTTP. */
export async function startNode(config: NodeConfig, log: Logger, options: StartOptions = {}): Promise<RunningNode> {
  // Read before the data dir is opened, so that a bad --genesis leaves no new data dir behind.
  const given = config.genesis === undefined ? undefined : await readGenesisFlag(config.genesis);
  const db = await openDatabase(config.dataDir, options.storage);
  try {
    return await assemble(config, log, db, given);
  } catch (error) {
    await db.close();
    if (error instanceof GenesisMismatchError) throw new ConfigError(error.message);
    if (error instanceof DataDirRefused) throw new DataDirRefused(`the data dir ${config.dataDir}: ${error.message}`);
    throw error;
  }
}

async function assemble(config: NodeConfig, log: Logger, db: DiskDatabase, given: NodeGenesis | undefined): Promise<RunningNode> {
  const { spec, devChain } = await chooseGenesis(config, db, given);
  const chain = await Chain.open(db, spec, (message) => log.info(message));
  const head = () => chain.head();
  const pool = await TxPool.open(db.pool as unknown as JournalDb, {
    common: chain.nextCommon(),
    blockGasLimit: () => head().header.gasLimit,
    nextBaseFee: () => baseFeeAfter(head().header, chain.nextCommon()),
    account: async (address: Address) => {
      const account = await (await chain.state.at(head().header.stateRoot)).getAccount(address);
      return { nonce: account?.nonce ?? 0n, balance: account?.balance ?? 0n };
    },
  }, { limit: config.txpoolLimit });
  const miner = new Miner(chain, pool, () => createChainVM(chain, chain.nextCommon(), chain.state.writer), { coinbase: createZeroAddress(), log });
  const mining = new MiningControl(miner, pool, log, {
    automine: config.mining && config.blockTime === 0,
    intervalMs: config.mining ? config.blockTime * 1000 : 0,
    writable: () => db.level.fault === undefined,
  });
  // Filters and subscriptions: polled filters persist in LevelDB; both hear of blocks after they land.
  const logQuery = new LogQuery(chain, { maxBlocks: config.logsMaxBlocks, maxResults: config.logsMaxResults });
  const filters = await FilterRegistry.open(db.filters, chain, logQuery, { timeoutMs: config.filterTimeout * 1000, maxFilters: config.maxFilters });
  const subscriptions = new Subscriptions(chain, logQuery, log, { maxPerConnection: config.maxFilters });
  chain.onBlock((block) => {
    filters.blockLanded();
    subscriptions.blockLanded(block);
  });
  pool.on('added', (tx) => {
    filters.transactionAdded(tx.hashHex);
    subscriptions.transactionAdded(tx.hashHex);
  });
  const services: Services = {
    config,
    chain,
    accounts: deriveAccounts(config.mnemonic, config.accounts),
    pool,
    miner,
    mining,
    executor: new Executor({ commonAt: (header) => chain.commons.at(header), state: chain.state, blockByNumber: (n) => chain.blockByNumber(n) }),
    sync: new SyncStatus(),
    pendingBlock: () => miner.preview(),
    filters,
    logQuery,
    subscriptions,
    contract: lazily(loadContract),
  };
  const gate = new RequestGate();
  const storage = new FailStop({
    db,
    gate,
    quiesce: (task) =>
      miner.exclusive(async () => {
        await subscriptions.idle();
        return task();
      }),
    check: () => headProblem(db, chain.head()),
    recovered: () => mining.resume(),
    log,
  });
  const dispatch = createDispatcher(methodTable(implementMethods(services)), log, { gate });
  const ws = createWsServer({
    invoke: dispatch,
    log,
    maxBacklogBytes: config.wsMaxBacklog,
    maxTotalBacklogBytes: config.wsMaxBacklogTotal,
    onClose: (connection) => {
      subscriptions.dropOwner(connection);
      filters.dropOwner(connection);
    },
  });
  let server: HttpServerHandle;
  try {
    server = await startHttpServer({
      host: config.host,
      port: config.port,
      invoke: dispatch,
      log,
      allowedHosts: config.allowedHosts,
      corsOrigins: config.cors.length > 0 ? config.cors : undefined,
      headersTimeoutMs: config.httpHeaderTimeoutMs,
      requestTimeoutMs: config.httpReadTimeoutMs,
      maxConnections: config.maxConnections,
      onUpgrade: ws.onUpgrade,
      routes: playgroundRoutes(),
      health: async () => {
        const state = { number: Number(head().header.number), hash: bytesToHex(head().hash()) };
        const health = storage.health();
        return health.ok ? { ok: true, ...state } : { ok: false, ...state, error: health.error };
      },
    });
  } catch (error) {
    mining.stop();
    await storage.close();
    await filters.close();
    throw error;
  }
  // Transactions journaled before a restart are mined as if they had just arrived.
  mining.resume();
  log.info(`serving chain ${chain.commons.base.chainId()} at ${server.url}, head ${head().header.number}`);
  log.info(nativeCryptoStatus());

  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    port: server.port,
    config,
    services,
    devChain,
    storage,
    websockets: ws,
    close: () =>
      (closing ??= (async () => {
        mining.stop();
        await storage.close();
        ws.close();
        await server.close();
        await miner.idle();
        await subscriptions.idle();
        await filters.close();
        await db.close();
      })()),
  };
}

