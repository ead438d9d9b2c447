// What a node runs with: its configuration and the defaults. The flags that set it and the help text are in
// flags.ts, the command line's parsing in command-line.ts.
import { Hardfork } from '@ethereumjs/common';
import { DEV_MNEMONIC } from './chain/dev-accounts.js';
import { DEV_INITIAL_BASE_FEE } from './chain/dev-genesis.js';
import { ConfigError } from './config-values.js';
import type { ForkChainSettings, ForkSettings } from './fork/open-fork.js';
import { DEFAULT_MAX_ANSWER_BYTES } from './format/answer-budget.js';
import type { LogLevel } from './log.js';

export { ConfigError };

export interface NodeConfig {
  host: string;
  port: number;
  /** where the chain is kept; without one it lives in memory and is gone when the node stops */
  dataDir?: string;
  /** wipe the data dir's chain before starting, so the chain starts again from its genesis */
  fresh: boolean;
  /** a state dump (anvil's format) merged into the chain's state at start; `ifExists`: only when the file is there (--state) */
  loadState?: { path: string; ifExists: boolean };
  /** where the state is written (anvil's format) on a clean shutdown */
  dumpState?: string;
  chainId: bigint;
  mnemonic: string;
  accounts: number;
  /** wei per dev account */
  balance: bigint;
  /** path to a geth-format genesis.json; replaces the dev genesis */
  genesis?: string;
  hardfork: string;
  gasLimit: bigint;
  /** the dev genesis block's timestamp (--timestamp), from which the block clock starts; undefined: dev-genesis.ts's fixed one, and the wall clock */
  timestamp?: bigint;
  /** the dev genesis block's base fee, where EIP-1559 is active */
  baseFee: bigint;
  /** the pool's price floor and eth_gasPrice where EIP-1559 does not price transactions (--gas-price) */
  gasPrice?: bigint;
  /** every address may send without its key from the start (--auto-impersonate) */
  autoImpersonate: boolean;
  /** the terminal and the log print one JSON object per line */
  json: boolean;
  /** browser origins allowed besides the defaults (`*` for any) */
  cors: string[];
  /** Host header values accepted besides the defaults (`*` for any) */
  allowedHosts: string[];
  logLevel: LogLevel;
  /** nothing on stdout: no banner, no request or transaction lines (errors still go to stderr) */
  silent: boolean;
  /** 0 = mine each transaction as it arrives; >0 = a block every N seconds (fractions allowed) */
  blockTime: number;
  mining: boolean;
  txpoolLimit: number;
  /** seconds a filter may go unpolled, counted from the first block after its last poll */
  filterTimeout: number;
  /** most filters installed at once (and most subscriptions per WebSocket connection) */
  maxFilters: number;
  /** most blocks one eth_getLogs may span */
  logsMaxBlocks: number;
  /** most logs one eth_getLogs may answer */
  logsMaxResults: number;
  /** bytes of JSON one answer's result may hold (a batch's results together); traces and simulations stop building there */
  maxResponseBytes: number;
  /** ms one transaction's trace may run, whatever its `timeout` asks */
  traceMaxTimeoutMs: number;
  /** bytes of unsent output a WebSocket connection may queue before it is closed */
  wsMaxBacklog: number;
  /** bytes of unsent output all WebSocket connections together may queue; past it the largest are closed */
  wsMaxBacklogTotal: number;
  /** ms a client may take to send a request's headers */
  httpHeaderTimeoutMs: number;
  /** ms a client may take to send a whole request, body included */
  httpReadTimeoutMs: number;
  /** open connections (HTTP and WebSocket) at once; more are answered 503 and closed */
  maxConnections: number;
  /** check every result against its method's result schema before it leaves (violations logged, counted in /health) */
  checkResults: boolean;
  /** `import`: an engine_forkchoiceUpdated request (JSON) naming the safe and finalized blocks */
  forkchoice?: string;
  /** `start`: RLP chain files to import while serving (eth_syncing reports the progress) */
  importFiles: string[];
  /** which genesis-shaping flags the user set, so a restart without them resumes the stored chain */
  genesisFlagsGiven: boolean;
  /** set to fork a remote chain (--fork-url, or --offline from the fork cache) */
  fork?: ForkConfig;
}

/** How to fork, from the --fork-* flags, with the chain id and fork the user set for the forked chain. */
export interface ForkConfig extends ForkSettings, ForkChainSettings {}

/** What shapes the dev chain's genesis (the flags a restart compares, and anvil_reset may change). */
export type GenesisSettings = Pick<NodeConfig, 'chainId' | 'hardfork' | 'gasLimit' | 'balance' | 'accounts' | 'mnemonic' | 'timestamp' | 'baseFee'>;

export const DEFAULTS: Omit<NodeConfig, 'genesisFlagsGiven'> = {
  host: '127.0.0.1',
  port: 8545,
  fresh: false,
  chainId: 31337n,
  mnemonic: DEV_MNEMONIC,
  accounts: 20,
  balance: 10_000n * 10n ** 18n,
  hardfork: Hardfork.Osaka,
  gasLimit: 30_000_000n,
  baseFee: DEV_INITIAL_BASE_FEE,
  autoImpersonate: false,
  json: false,
  cors: [],
  allowedHosts: [],
  logLevel: 'info',
  silent: false,
  blockTime: 0,
  mining: true,
  txpoolLimit: 10_000,
  filterTimeout: 300,
  maxFilters: 10_000,
  logsMaxBlocks: 100_000,
  logsMaxResults: 20_000,
  maxResponseBytes: DEFAULT_MAX_ANSWER_BYTES,
  traceMaxTimeoutMs: 60_000,
  wsMaxBacklog: 16 * 1024 * 1024,
  wsMaxBacklogTotal: 64 * 1024 * 1024,
  httpHeaderTimeoutMs: 10_000,
  httpReadTimeoutMs: 30_000,
  maxConnections: 1024,
  checkResults: false,
  importFiles: [],
};

export const COMMANDS = ['start', 'import', 'contract'] as const;

/** How the node talks to a fork's remote unless told otherwise (anvil's retries and back-off; its timeout). */
export const FORK_DEFAULTS = { retries: 5, backoffMs: 1000, timeoutMs: 45_000 };
