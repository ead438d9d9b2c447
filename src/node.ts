import { readFile } from 'node:fs/promises';
import { bytesToHex, createZeroAddress, type Address } from '@ethereumjs/util';
import { Chain, GenesisMismatchError } from './chain/chain.js';
import { commonFromGenesis } from './chain/genesis.js';
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
import { openDatabase, openMemoryDatabase, type Database, type DiskDatabase, type OpenOptions } from './storage/database.js';
import { FailStop } from './storage/fail-stop.js';
import { headProblem } from './chain/head-check.js';
import { RequestGate } from './storage/request-gate.js';
import { DataDirRefused, StorageFault } from './storage/storage-fault.js';
import { creationUndo, wipeDataDir } from './storage/wipe.js';
import { Terminal } from './terminal/terminal.js';
import { DeferredApp } from './transport/deferred-app.js';
import { acceptedHosts } from './transport/hosts.js';
import { DEFAULT_CORS_ORIGINS, startHttpServer, type HttpServerHandle } from './transport/http.js';
import { listenRefusal } from './transport/listen-failure.js';
import { refusalLog } from './transport/refusal-log.js';
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
  /** The database's fail-stop: its health, and recovery after a failed write (none for a chain in memory). */
  storage?: FailStop;
  /** the Host headers the node accepts */
  acceptedHosts: readonly string[];
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

const FILE_ERRORS: Record<string, string> = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'it is a directory' };

/** The --genesis file, read and checked as a genesis before anything is written. */
async function readGenesisFlag(path: string): Promise<NodeGenesis> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new ConfigError(`cannot read --genesis ${path}: ${(code !== undefined && FILE_ERRORS[code]) || message}`);
  }
  let spec: NodeGenesis;
  try {
    spec = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`--genesis ${path} is not JSON: ${(error as Error).message}`);
  }
  try {
    commonFromGenesis(spec);
  } catch (error) {
    throw new ConfigError(`--genesis ${path} is not a geth-format genesis: ${(error as Error).message.replace(/^Error parsing parameters file: /, '')}`);
  }
  return spec;
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

/** Opens the chain of `spec`; one a --genesis `file` gave that cannot be built is the command line's fault. */
async function openChain(db: Database, spec: NodeGenesis, file: string | undefined): Promise<Chain> {
  try {
    return await Chain.open(db, spec);
  } catch (error) {
    if (file === undefined || error instanceof DataDirRefused || error instanceof GenesisMismatchError || error instanceof StorageFault) throw error;
    throw new ConfigError(`--genesis ${file} cannot be used: ${(error as Error).message}`);
  }
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
      onUpgrade: app.onUpgrade,
      onRefused: refusalLog(log),
      routes: playgroundRoutes(),
      health: app.health,
    });
  } catch (error) {
    throw listenRefusal(error, config.host, config.port) ?? error;
  }
}

interface Parts {
  db: Database;
  server: HttpServerHandle;
  app: DeferredApp;
  hosts: readonly string[];
  terminal?: (text: string) => void;
}

const isOnDisk = (db: Database): db is DiskDatabase => 'level' in db;

async function assemble(config: NodeConfig, log: Logger, { db, server, app, hosts, terminal: write }: Parts, given: NodeGenesis | undefined): Promise<RunningNode> {
  const { spec, devChain } = await chooseGenesis(config, db, given);
  const chain = await openChain(db, spec, given === undefined ? undefined : config.genesis);
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
  const vm = await createChainVM(chain, chain.nextCommon(), chain.state.writer);
  const terminal = write === undefined ? undefined : new Terminal(write);
  terminal?.watchMiner(vm, (listener) => chain.onBlock(listener));
  const miner = new Miner(chain, pool, vm, { coinbase: createZeroAddress(), log });
  const mining = new MiningControl(miner, pool, log, {
    automine: config.mining && config.blockTime === 0,
    intervalMs: config.mining ? config.blockTime * 1000 : 0,
    writable: () => !isOnDisk(db) || db.level.fault === undefined,
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
    executor: new Executor(
      { commonAt: (header) => chain.commons.at(header), state: chain.state, blockByNumber: (n) => chain.blockByNumber(n) },
      terminal === undefined ? undefined : (callVm) => terminal.watchCalls(callVm),
    ),
    sync: new SyncStatus(),
    pendingBlock: () => miner.preview(),
    filters,
    logQuery,
    subscriptions,
    contract: loadContract(),
  };
  const gate = new RequestGate();
  // A chain in memory has no disk to fail: no fail-stop.
  const storage = isOnDisk(db)
    ? new FailStop({
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
      })
    : undefined;
  const methods = createDispatcher(methodTable(implementMethods(services)), log, { gate });
  const dispatch = terminal === undefined ? methods : terminal.dispatcher(methods);
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
  app.resolve({
    invoke: dispatch,
    onUpgrade: ws.onUpgrade,
    health: async () => {
      const state = { number: Number(head().header.number), hash: bytesToHex(head().hash()) };
      const health = storage?.health() ?? { ok: true };
      return health.ok ? { ok: true, ...state } : { ok: false, ...state, error: health.error };
    },
  });
  // Transactions journaled before a restart are mined as if they had just arrived.
  mining.resume();
  log.debug(`serving chain ${chain.commons.base.chainId()} at ${server.url}, head ${head().header.number}`);
  log.debug(nativeCryptoStatus());

  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    port: server.port,
    config,
    services,
    devChain,
    storage,
    acceptedHosts: hosts,
    websockets: ws,
    close: () =>
      (closing ??= (async () => {
        mining.stop();
        await storage?.close();
        ws.close();
        await server.close();
        await miner.idle();
        await subscriptions.idle();
        await filters.close();
        await terminal?.flush();
        await db.close();
      })()),
  };
}

