import { parseArgs } from 'node:util';
import { Hardfork } from '@ethereumjs/common';
import { DEV_MNEMONIC } from './chain/dev-accounts.js';
import { DEV_HARDFORKS, DEV_INITIAL_BASE_FEE } from './chain/dev-genesis.js';
import { DEFAULT_MAX_ANSWER_BYTES, MAX_ANSWER_BYTES } from './format/answer-budget.js';
import { mnemonicProblem, normalizeMnemonic } from './chain/mnemonic.js';
import { bigint, choice, ConfigError, ether, integer, list, seconds } from './config-values.js';
import { didYouMean } from './suggest.js';
import { LOG_LEVELS, type LogLevel } from './log.js';

export { ConfigError };
import type { ForkChainSettings, ForkSettings } from './fork/open-fork.js';


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

interface Flag {
  name: string;
  /** the value's placeholder; none for a switch */
  value?: string;
  multiple?: boolean;
  short?: string;
  /** other names it answers to (anvil's) */
  aliases?: string[];
  help: string;
  /** shown as "(default …)" */
  default?: string;
}

/** Every flag of `start` and `import`: the parser's options and the help text both come from here. */
export const FLAGS: readonly Flag[] = [
  { name: 'host', value: 'HOST', help: 'interface to bind', default: DEFAULTS.host },
  { name: 'port', short: 'p', value: 'PORT', help: 'port to listen on, 0 for any free one', default: String(DEFAULTS.port) },
  { name: 'data-dir', value: 'DIR', help: 'keep the chain in DIR (LevelDB) and resume it on the next start; without it the chain lives in memory and is gone when the node stops' },
  { name: 'fresh', help: "wipe the chain in --data-dir before starting (refuses a dir holding anything but LevelDB's files)" },
  { name: 'load-state', value: 'FILE', help: "merge the state dump in FILE (anvil's format, plain JSON or gzip) into the chain's state at start" },
  { name: 'dump-state', value: 'FILE', help: "write the state to FILE in anvil's format on a clean shutdown (Ctrl-C, SIGTERM), atomically; a directory gets FILE/state.json" },
  { name: 'state', value: 'FILE', help: 'both: load FILE at start if it exists, and write it on a clean shutdown' },
  { name: 'chain-id', value: 'ID', help: 'chain id of the dev chain', default: String(DEFAULTS.chainId) },
  { name: 'mnemonic', short: 'm', value: 'WORDS', help: 'BIP-39 mnemonic of the dev accounts', default: 'the well-known test mnemonic' },
  { name: 'accounts', short: 'a', value: 'N', help: 'number of funded dev accounts', default: String(DEFAULTS.accounts) },
  { name: 'balance', value: 'ETH', help: 'balance of each dev account in ether (decimals allowed: 0.5)', default: String(DEFAULTS.balance / 10n ** 18n) },
  { name: 'genesis', value: 'FILE', aliases: ['init'], help: 'start from a geth-format genesis.json instead of the dev chain (also --init)' },
  { name: 'forkchoice', value: 'FILE', help: 'import: an engine_forkchoiceUpdated request naming the safe and finalized blocks' },
  { name: 'import', value: 'CHAIN.rlp', multiple: true, help: 'start: import a chain file while serving (repeatable; eth_syncing shows progress)' },
  { name: 'hardfork', value: 'NAME', help: `fork of the dev chain: ${DEV_HARDFORKS.join(', ')}`, default: DEFAULTS.hardfork },
  { name: 'gas-limit', value: 'GAS', help: 'block gas limit of the dev chain', default: String(DEFAULTS.gasLimit) },
  { name: 'timestamp', value: 'SECONDS', help: "the dev genesis block's timestamp (Unix seconds); blocks then follow on from it as time passes (default: a fixed 2025-01-01, the clock the wall clock)" },
  { name: 'base-fee', value: 'WEI', aliases: ['block-base-fee-per-gas'], help: "the dev genesis block's base fee, which later blocks adjust as EIP-1559 does (also --block-base-fee-per-gas)", default: String(DEFAULTS.baseFee) },
  { name: 'gas-price', value: 'WEI', help: 'on a chain without EIP-1559 (--hardfork berlin or earlier): the lowest gas price the pool accepts, and what eth_gasPrice answers' },
  { name: 'block-time', short: 'b', value: 'SECONDS', aliases: ['blockTime'], help: 'mine a block every SECONDS (fractions allowed: 0.5) instead of on each transaction' },
  { name: 'no-mining', aliases: ['no-mine'], help: 'mine only on evm_mine (also --no-mine)' },
  { name: 'auto-impersonate', aliases: ['auto-unlock'], help: 'send from any address without its key, as after anvil_autoImpersonateAccount(true) (also --auto-unlock)' },
  { name: 'txpool-limit', value: 'N', help: 'capacity of the transaction pool', default: String(DEFAULTS.txpoolLimit) },
  { name: 'filter-timeout', value: 'SECS', help: 'drop a filter unpolled this long while blocks arrive', default: String(DEFAULTS.filterTimeout) },
  { name: 'max-filters', value: 'N', help: 'most installed filters, and subscriptions per WebSocket', default: String(DEFAULTS.maxFilters) },
  { name: 'logs-max-blocks', value: 'N', help: 'most blocks one eth_getLogs may span', default: String(DEFAULTS.logsMaxBlocks) },
  { name: 'logs-max-results', value: 'N', help: 'most logs one eth_getLogs may return', default: String(DEFAULTS.logsMaxResults) },
  {
    name: 'max-response-bytes',
    value: 'BYTES',
    help: "most bytes of JSON one answer's result may hold (a batch's together), else -32003; traces and simulations stop as they pass it",
    default: String(DEFAULTS.maxResponseBytes),
  },
  { name: 'trace-max-timeout', value: 'SECS', help: "most time one transaction's trace may run, whatever its timeout asks", default: String(DEFAULTS.traceMaxTimeoutMs / 1000) },
  { name: 'ws-max-backlog', value: 'BYTES', help: 'close a WebSocket whose unsent output passes this', default: String(DEFAULTS.wsMaxBacklog) },
  {
    name: 'ws-max-backlog-total',
    value: 'BYTES',
    help: "when all WebSockets' unsent output together passes this, close those holding the most",
    default: String(DEFAULTS.wsMaxBacklogTotal),
  },
  { name: 'http-header-timeout', value: 'SECS', help: 'answer 408 and close a connection whose request headers take longer', default: String(DEFAULTS.httpHeaderTimeoutMs / 1000) },
  { name: 'http-read-timeout', value: 'SECS', help: 'answer 408 and close a connection whose whole request takes longer', default: String(DEFAULTS.httpReadTimeoutMs / 1000) },
  { name: 'max-connections', value: 'N', help: 'open HTTP and WebSocket connections at once; more are answered 503', default: String(DEFAULTS.maxConnections) },
  {
    name: 'check-results',
    help: 'check every result against its schema in openrpc.json before it leaves; a violation is logged (method, JSON path, rule) and counted in /health',
  },
  { name: 'cors', value: 'ORIGINS', help: "comma-separated browser origins allowed besides the defaults (local pages, browser extensions, Remix), '*' for any" },
  { name: 'allowed-hosts', value: 'HOSTS', help: "comma-separated Host header values accepted besides localhost, 127.0.0.1, [::1] and the --host address, '*' for any" },
  { name: 'fork-url', value: 'URL', help: 'fork the chain this JSON-RPC node serves (http, https, ws or wss): its state is read lazily at the fork block and cached' },
  { name: 'fork-block-number', value: 'N', help: "the block to fork at (default: the remote's head at start)" },
  { name: 'fork-header', value: 'HEADER', multiple: true, help: "an HTTP header for the fork's remote, 'Name: value' (repeatable), e.g. a provider's key" },
  { name: 'fork-chain-id', value: 'ID', help: "the remote's chain id, so it need not be asked" },
  { name: 'fork-retries', value: 'N', help: "tries after the first for a remote request that failed or was rate-limited", default: String(FORK_DEFAULTS.retries) },
  { name: 'fork-retry-backoff', value: 'MS', help: 'first wait before trying a remote request again; it doubles each try (Retry-After wins)', default: String(FORK_DEFAULTS.backoffMs) },
  { name: 'fork-timeout', value: 'MS', help: 'how long one request to the remote may take', default: String(FORK_DEFAULTS.timeoutMs) },
  { name: 'offline', help: 'serve a fork from its cache only, asking the remote nothing: a miss is an error' },
  { name: 'fork-cache-dir', value: 'DIR', help: 'where fork caches live without --data-dir, instead of $XDG_CACHE_HOME/evm-node/forks or else ~/.cache/evm-node/forks' },
  { name: 'no-fork-cache', help: "keep what the remote answers in memory only: nothing is written to the fork cache" },
  { name: 'log-level', value: 'LEVEL', help: `${LOG_LEVELS.join(', ')}: info prints each request and mined transaction, debug more`, default: DEFAULTS.logLevel },
  { name: 'silent', short: 'q', aliases: ['quiet'], help: 'print nothing but errors: no banner, no requests, no transactions (also --quiet)' },
  { name: 'json', help: 'print one JSON object per line: the start, each request (method, duration, transaction hash, error), each mined transaction (its block, gas, status, error, console.log) and the log' },
  { name: 'help', short: 'h', help: 'show this help' },
];

const HELP_COLUMN = 25;
const HELP_WIDTH = 100;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}

function helpEntry(flag: Flag): string {
  const head = `  ${flag.short === undefined ? '' : `-${flag.short}, `}--${flag.name}${flag.value === undefined ? '' : ` ${flag.value}`}`;
  const body = wrap(`${flag.help}${flag.default === undefined ? '' : ` (default ${flag.default})`}`, HELP_WIDTH - HELP_COLUMN);
  const indent = ' '.repeat(HELP_COLUMN);
  const first = head.length < HELP_COLUMN - 1 ? `${head.padEnd(HELP_COLUMN)}${body.shift()}` : head;
  return [first, ...body.map((line) => indent + line)].join('\n');
}

export const HELP = `evm-node — a contract-first EVM JSON-RPC node

Usage: evm-node [start] [flags]
       evm-node import --data-dir DIR [--genesis FILE] [--forkchoice FILE] CHAIN.rlp...
       evm-node contract diff|lint|release ...   (the API contract tools; evm-node contract --help)

start serves a dev chain: in memory unless --data-dir names where to keep it.
import executes and validates the blocks of geth-format RLP chain files onto the data dir's
chain (created from --genesis on first use), then exits; \`start --data-dir DIR\` serves it.
Without --forkchoice, a headfcu.json beside the first chain file sets the safe and finalized blocks.

Flags:
${FLAGS.map(helpEntry).join('\n')}

Exit codes: 0 stopped cleanly; 1 could not start (port in use, data dir in use or refused);
2 bad command line (unknown flag, bad value, bad mnemonic, unreadable genesis, another chain in
the data dir).
`;

/** parseArgs's message for an unknown flag, with the nearest known one. */
function parseFailure(error: unknown): ConfigError {
  const { code, message } = error as { code?: string; message: string };
  const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '(-{1,2})([^']*)'/.exec(message) : null;
  if (unknown === null) return new ConfigError(message);
  const [, dashes, name] = unknown;
  const names = FLAGS.map((flag) => flag.name);
  const guess = name!.length === 0 ? '' : didYouMean(name!, names).replace(/did you mean (\S+)\?/, 'did you mean --$1?');
  return new ConfigError(`unknown flag ${dashes}${name}${guess}; see --help`);
}

export interface ParsedCommand {
  command: string;
  config: NodeConfig;
  positionals: string[];
  help: boolean;
}

/** Flags → config. Throws ConfigError with a message naming the flag at fault. */
export function parseCommand(argv: string[]): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: Object.fromEntries(
        FLAGS.flatMap((flag) => {
          const type = flag.value === undefined ? ('boolean' as const) : ('string' as const);
          const multiple = flag.multiple === true ? { multiple: true } : {};
          return [
            [flag.name, { type, ...multiple, ...(flag.short === undefined ? {} : { short: flag.short }) }] as const,
            ...(flag.aliases ?? []).map((alias) => [alias, { type, ...multiple }] as const),
          ];
        }),
      ),
    });
  } catch (error) {
    throw parseFailure(error);
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  for (const flag of FLAGS) for (const alias of flag.aliases ?? []) values[flag.name] ??= values[alias];
  const string = (name: string) => values[name] as string | undefined;
  const { positionals } = parsed;
  const [command = 'start', ...rest] = positionals;
  if (!(COMMANDS as readonly string[]).includes(command)) throw new ConfigError(`unknown command ${JSON.stringify(command)}${didYouMean(command, COMMANDS)}; see --help`);
  if (command === 'start' && rest.length > 0) {
    const [stray] = rest;
    const guess = /^[0-9]+$/.test(stray!) ? ` (did you mean --port ${stray}?)` : '';
    throw new ConfigError(`unexpected argument ${JSON.stringify(stray)}: start takes flags only${guess}; see --help`);
  }
  const config: NodeConfig = { ...DEFAULTS, genesisFlagsGiven: false };
  if (string('host') !== undefined) config.host = string('host')!;
  if (string('port') !== undefined) config.port = integer('port', string('port')!, 0);
  if (config.port > 65535) throw new ConfigError('--port must be at most 65535');
  if (string('data-dir') !== undefined) config.dataDir = string('data-dir');
  // Without --data-dir every start is fresh already, so --fresh alone is accepted and changes nothing.
  config.fresh = values.fresh === true;
  if (string('state') !== undefined && (string('load-state') !== undefined || string('dump-state') !== undefined)) {
    throw new ConfigError('--state is --load-state and --dump-state in one: give either it or them');
  }
  const load = string('load-state') ?? string('state');
  if (load !== undefined) config.loadState = { path: load, ifExists: string('load-state') === undefined };
  config.dumpState = string('dump-state') ?? string('state');
  if (string('chain-id') !== undefined) config.chainId = bigint('chain-id', string('chain-id')!);
  if (string('mnemonic') !== undefined) {
    const mnemonic = normalizeMnemonic(string('mnemonic')!);
    const problem = mnemonicProblem(mnemonic);
    if (problem !== undefined) throw new ConfigError(`--mnemonic: ${problem}`);
    config.mnemonic = mnemonic;
  }
  if (string('accounts') !== undefined) config.accounts = integer('accounts', string('accounts')!, 0);
  if (string('balance') !== undefined) config.balance = ether('balance', string('balance')!);
  if (string('genesis') !== undefined) config.genesis = string('genesis');
  if (string('forkchoice') !== undefined) config.forkchoice = string('forkchoice');
  if (values.import !== undefined) config.importFiles = values.import as string[];
  if (string('hardfork') !== undefined) config.hardfork = choice('hardfork', string('hardfork')!, DEV_HARDFORKS);
  if (string('gas-limit') !== undefined) config.gasLimit = bigint('gas-limit', string('gas-limit')!);
  if (string('timestamp') !== undefined) config.timestamp = bigint('timestamp', string('timestamp')!);
  if (string('base-fee') !== undefined) {
    config.baseFee = bigint('base-fee', string('base-fee')!);
    if (DEV_HARDFORKS.indexOf(config.hardfork) < DEV_HARDFORKS.indexOf(Hardfork.London)) throw new ConfigError(`--base-fee needs EIP-1559, which --hardfork ${config.hardfork} predates (london or later has it)`);
  }
  if (string('gas-price') !== undefined) config.gasPrice = bigint('gas-price', string('gas-price')!);
  if (string('block-time') !== undefined) config.blockTime = seconds('block-time', string('block-time')!) / 1000;
  if (values['no-mining'] === true) config.mining = false;
  config.autoImpersonate = values['auto-impersonate'] === true;
  if (string('txpool-limit') !== undefined) config.txpoolLimit = integer('txpool-limit', string('txpool-limit')!, 1);
  if (string('filter-timeout') !== undefined) config.filterTimeout = integer('filter-timeout', string('filter-timeout')!, 1);
  if (string('max-filters') !== undefined) config.maxFilters = integer('max-filters', string('max-filters')!, 1);
  if (string('logs-max-blocks') !== undefined) config.logsMaxBlocks = integer('logs-max-blocks', string('logs-max-blocks')!, 1);
  if (string('logs-max-results') !== undefined) config.logsMaxResults = integer('logs-max-results', string('logs-max-results')!, 1);
  if (string('max-response-bytes') !== undefined) {
    config.maxResponseBytes = integer('max-response-bytes', string('max-response-bytes')!, 1024);
    if (config.maxResponseBytes > MAX_ANSWER_BYTES) throw new ConfigError(`--max-response-bytes must be at most ${MAX_ANSWER_BYTES} (the longest string V8 holds)`);
  }
  if (string('trace-max-timeout') !== undefined) config.traceMaxTimeoutMs = integer('trace-max-timeout', string('trace-max-timeout')!, 1) * 1000;
  if (string('ws-max-backlog') !== undefined) config.wsMaxBacklog = integer('ws-max-backlog', string('ws-max-backlog')!, 1024);
  if (string('ws-max-backlog-total') !== undefined) config.wsMaxBacklogTotal = integer('ws-max-backlog-total', string('ws-max-backlog-total')!, 1024);
  if (string('http-header-timeout') !== undefined) config.httpHeaderTimeoutMs = integer('http-header-timeout', string('http-header-timeout')!, 1) * 1000;
  if (string('http-read-timeout') !== undefined) config.httpReadTimeoutMs = integer('http-read-timeout', string('http-read-timeout')!, 1) * 1000;
  // node:http refuses a header timeout longer than the whole request's.
  if (config.httpHeaderTimeoutMs > config.httpReadTimeoutMs) {
    throw new ConfigError(`--http-header-timeout (${config.httpHeaderTimeoutMs / 1000}) must not exceed --http-read-timeout (${config.httpReadTimeoutMs / 1000})`);
  }
  if (string('max-connections') !== undefined) config.maxConnections = integer('max-connections', string('max-connections')!, 1);
  config.checkResults = values['check-results'] === true;
  if (string('cors') !== undefined) config.cors = list(string('cors')!);
  if (string('allowed-hosts') !== undefined) config.allowedHosts = list(string('allowed-hosts')!);
  if (string('log-level') !== undefined) config.logLevel = choice('log-level', string('log-level')!, LOG_LEVELS);
  config.silent = values.silent === true;
  config.json = values.json === true;
  config.fork = forkConfig(values, config);
  config.genesisFlagsGiven = ['chain-id', 'mnemonic', 'accounts', 'balance', 'genesis', 'hardfork', 'gas-limit', 'timestamp', 'base-fee'].some((flag) => values[flag] !== undefined);
  return { command, config, positionals: rest, help: values.help === true };
}

/** The --fork-* flags as a fork's settings; undefined when none asks for a fork. */
function forkConfig(values: Record<string, string | boolean | string[] | undefined>, config: NodeConfig): ForkConfig | undefined {
  const string = (name: string) => values[name] as string | undefined;
  const url = string('fork-url');
  const offline = values.offline === true;
  const forking = url !== undefined || offline;
  for (const flag of ['fork-block-number', 'fork-header', 'fork-chain-id', 'fork-retries', 'fork-retry-backoff', 'fork-timeout', 'fork-cache-dir', 'no-fork-cache']) {
    if (!forking && values[flag] !== undefined) throw new ConfigError(`--${flag} needs --fork-url (or --offline)`);
  }
  if (!forking) return undefined;
  if (url !== undefined && !/^(https?|wss?):\/\//i.test(url)) throw new ConfigError(`--fork-url must be an http(s):// or ws(s):// URL, got ${JSON.stringify(url)}`);
  if (config.genesis !== undefined) throw new ConfigError('--genesis and --fork-url exclude each other: a fork starts from the remote chain');
  const headers: Record<string, string> = {};
  for (const header of (values['fork-header'] as string[] | undefined) ?? []) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new ConfigError(`--fork-header must read 'Name: value', got ${JSON.stringify(header)}`);
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  return {
    url: offline ? undefined : url,
    blockNumber: string('fork-block-number') === undefined ? undefined : bigint('fork-block-number', string('fork-block-number')!),
    headers,
    remoteChainId: string('fork-chain-id') === undefined ? undefined : bigint('fork-chain-id', string('fork-chain-id')!),
    retries: string('fork-retries') === undefined ? FORK_DEFAULTS.retries : integer('fork-retries', string('fork-retries')!, 0),
    backoffMs: string('fork-retry-backoff') === undefined ? FORK_DEFAULTS.backoffMs : integer('fork-retry-backoff', string('fork-retry-backoff')!, 0),
    timeoutMs: string('fork-timeout') === undefined ? FORK_DEFAULTS.timeoutMs : integer('fork-timeout', string('fork-timeout')!, 1),
    offline,
    cacheDir: string('fork-cache-dir'),
    cache: values['no-fork-cache'] !== true,
    chainId: values['chain-id'] === undefined ? undefined : config.chainId,
    hardfork: values.hardfork === undefined ? undefined : config.hardfork,
  };
}
