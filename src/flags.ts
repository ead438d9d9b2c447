// Every flag of `start` and `import`, with its value, default and help: the command line's parser
// (command-line.ts) and the help text both come from here.
import { DEV_HARDFORKS } from './chain/dev-genesis.js';
import { DEFAULTS, FORK_DEFAULTS } from './config.js';
import { LOG_LEVELS } from './log.js';

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
  {
    name: 'fork-url',
    value: 'URL',
    help: 'fork the chain this JSON-RPC node serves (http, https, ws or wss): its state is read lazily at the fork block and cached; URL@N forks at block N',
  },
  {
    name: 'fork-block-number',
    value: 'N',
    help: "the block to fork at; below zero, that many blocks before the remote's head (--fork-block-number=-5) (default: the remote's head at start)",
  },
  { name: 'fork-header', value: 'HEADER', multiple: true, help: "an HTTP header for the fork's remote, 'Name: value' (repeatable), e.g. a provider's key" },
  { name: 'fork-chain-id', value: 'ID', help: "the remote's chain id, so it need not be asked" },
  { name: 'fork-retries', value: 'N', aliases: ['retries'], help: 'tries after the first for a remote request that failed or was rate-limited (also --retries)', default: String(FORK_DEFAULTS.retries) },
  { name: 'fork-retry-backoff', value: 'MS', help: 'first wait before trying a remote request again; it doubles each try (Retry-After wins)', default: String(FORK_DEFAULTS.backoffMs) },
  { name: 'fork-timeout', value: 'MS', aliases: ['timeout'], help: 'how long one request to the remote may take (also --timeout)', default: String(FORK_DEFAULTS.timeoutMs) },
  { name: 'offline', help: 'serve a fork from its cache only, asking the remote nothing: a miss is an error' },
  { name: 'fork-cache-dir', value: 'DIR', help: 'where fork caches live without --data-dir, instead of $XDG_CACHE_HOME/evm-node/forks or else ~/.cache/evm-node/forks' },
  { name: 'no-fork-cache', aliases: ['no-storage-caching'], help: 'keep what the remote answers in memory only: nothing is written to the fork cache (also --no-storage-caching)' },
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
