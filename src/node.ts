// Composition root: the port, the database, the chain served (served-chain.ts) with its services
// (node-services.ts), the HTTP and WebSocket servers, the storage guard, and a clean shutdown.
import { bytesToHex } from '@ethereumjs/util';
import { GenesisMismatchError } from './chain/chain.js';
import type { NodeGenesis } from './chain/genesis.js';
import { headProblem } from './chain/head-check.js';
import { SyncStatus } from './chain/sync-status.js';
import { ConfigError, FORK_DEFAULTS, type NodeConfig } from './config.js';
import { nativeCryptoStatus } from './crypto/native.js';
import { dumpStateFlag, loadStateFlag } from './dump/state-file.js';
import { LogQuery } from './filters/log-query.js';
import { Subscriptions } from './filters/subscriptions.js';
import { switchable, type Logger } from './log.js';
import type { NodeControl, Services } from './methods/services.js';
import { openFirstChain, readGenesisFlag } from './node-chain.js';
import { isOnDisk, type NodeWide } from './node-services.js';
import type { Dispatcher } from './rpc/dispatch.js';
import { ResultCheck } from './rpc/result-check.js';
import { ServedChain } from './served-chain.js';
import { openDatabase, openMemoryDatabase, type Database, type OpenOptions } from './storage/database.js';
import { FailStop } from './storage/fail-stop.js';
import { RequestGate } from './storage/request-gate.js';
import { DataDirRefused } from './storage/storage-fault.js';
import { creationUndo, wipeDataDir } from './storage/wipe.js';
import { Terminal } from './terminal/terminal.js';
import { DEFAULT_CORS_ORIGINS } from './transport/browser-guards.js';
import { DeferredApp } from './transport/deferred-app.js';
import { acceptedHosts } from './transport/hosts.js';
import { startHttpServer, type HttpServerHandle } from './transport/http.js';
import { listenRefusal } from './transport/listen-failure.js';
import { playgroundRoutes } from './transport/playground.js';
import { refusalLog } from './transport/refusal-log.js';
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

async function assemble(config: NodeConfig, baseLog: Logger, { db, server, app, hosts, terminal: write }: Parts, given: NodeGenesis | undefined): Promise<RunningNode> {
  const log = switchable(baseLog);
  const terminal = write === undefined ? undefined : new Terminal(write, undefined, config.json);
  const resets = new Mutex();
  // Made below, once the first chain is open; the controls reach it only when a method runs.
  let served: ServedChain;
  const control: NodeControl = {
    get instanceId() {
      return served.instanceId;
    },
    reset: (genesis, forking) => resets.run(() => served.reset(genesis, forking)),
    setChainId: (chainId) => resets.run(() => served.setChainId(chainId)),
    setRpcUrl: (url) => resets.run(() => served.setRpcUrl(url)),
    setLogging: (on) => {
      log.setEnabled(on);
      terminal?.setEnabled(on);
    },
    get forkRetryBackoffMs() {
      return served.settings.fork?.backoffMs ?? FORK_DEFAULTS.backoffMs;
    },
  };
  db.damage.onFound((damage) => log.error(damage.message));
  const { chain: firstChain, devChain } = await openFirstChain(config, db, given, log);
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
  served = await ServedChain.serve(config, firstChain, devChain, wide);

  // A chain in memory has no disk to fail: no fail-stop.
  const storage = isOnDisk(db)
    ? new FailStop({
        db,
        gate: wide.gate,
        quiesce: (task) =>
          served.services.miner.exclusive(async () => {
            await wide.subscriptions.idle();
            return task();
          }),
        check: () => headProblem(db, served.services.chain.head(), served.services.chain.fork?.base),
        recovered: () => served.services.mining.resume(),
        log,
      })
    : undefined;
  const toCore: Dispatcher = (method, params, ctx) => served.dispatch(method, params, ctx);
  const dispatch = terminal === undefined ? toCore : terminal.dispatcher(toCore);
  const ws = createWsServer({
    invoke: dispatch,
    log,
    maxBacklogBytes: config.wsMaxBacklog,
    maxTotalBacklogBytes: config.wsMaxBacklogTotal,
    maxResultBytes: config.maxResponseBytes,
    onClose: (connection) => {
      wide.subscriptions.dropOwner(connection);
      served.services.filters.dropOwner(connection);
    },
  });
  app.resolve({
    invoke: dispatch,
    onUpgrade: ws.onUpgrade,
    health: async () => {
      const head = served.services.chain.head();
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
  if (config.loadState !== undefined) await loadStateFlag(served.services.stateDumps, config.loadState);
  // Transactions journaled before a restart are mined as if they had just arrived.
  served.services.mining.resume();
  log.debug(`serving chain ${firstChain.commons.base.chainId()} at ${server.url}, head ${firstChain.head().header.number}`);
  log.debug(nativeCryptoStatus());

  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    port: server.port,
    config,
    get services() {
      return served.services;
    },
    get devChain() {
      return served.devChain;
    },
    storage,
    acceptedHosts: hosts,
    resultCheck: wide.results,
    websockets: ws,
    close: () =>
      (closing ??= (async () => {
        await resets.run(async () => {
          const { mining, miner, filters } = served.services;
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
          if (config.dumpState !== undefined) await dumpStateFlag(served.services.stateDumps, config.dumpState, log);
          await wide.subscriptions.idle();
          await filters.close();
          await terminal?.flush();
          await served.services.chain.fork?.store.close();
          served.services.chain.fork?.remote?.close();
          await db.close();
        });
      })()),
  };
}

