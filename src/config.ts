import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { Hardfork } from '@ethereumjs/common';
import { DEV_MNEMONIC } from './chain/dev-accounts.js';
import { DEV_HARDFORKS } from './chain/dev-genesis.js';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface NodeConfig {
  host: string;
  port: number;
  dataDir: string;
  chainId: bigint;
  mnemonic: string;
  accounts: number;
  /** wei per dev account */
  balance: bigint;
  /** path to a geth-format genesis.json; replaces the dev genesis */
  genesis?: string;
  hardfork: string;
  gasLimit: bigint;
  cors: string[];
  allowedHosts: string[];
  logLevel: LogLevel;
  /** 0 = mine each transaction as it arrives; >0 = a block every N seconds */
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
  /** bytes of unsent output a WebSocket connection may queue before it is closed */
  wsMaxBacklog: number;
  /** worker threads running eth_call and eth_estimateGas beside the main thread (0: none) */
  callWorkers: number;
  /** `import`: an engine_forkchoiceUpdated request (JSON) naming the safe and finalized blocks */
  forkchoice?: string;
  /** `start`: RLP chain files to import while serving (eth_syncing reports the progress) */
  importFiles: string[];
  /** which genesis-shaping flags the user set, so a restart without them resumes the stored chain */
  genesisFlagsGiven: boolean;
}

export const DEFAULTS: Omit<NodeConfig, 'genesisFlagsGiven'> = {
  host: '127.0.0.1',
  port: 8545,
  dataDir: './data',
  chainId: 31337n,
  mnemonic: DEV_MNEMONIC,
  accounts: 20,
  balance: 10_000n * 10n ** 18n,
  hardfork: Hardfork.Osaka,
  gasLimit: 30_000_000n,
  cors: [],
  allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
  logLevel: 'info',
  blockTime: 0,
  mining: true,
  txpoolLimit: 10_000,
  filterTimeout: 300,
  maxFilters: 10_000,
  logsMaxBlocks: 100_000,
  logsMaxResults: 20_000,
  wsMaxBacklog: 16 * 1024 * 1024,
  // One core for the main thread (HTTP, blocks), the rest, up to four, for calls.
  callWorkers: Math.max(1, Math.min(4, availableParallelism() - 1)),
  importFiles: [],
};

export const HELP = `evm-node — a contract-first EVM JSON-RPC node

Usage: evm-node [start] [flags]
       evm-node import --data-dir DIR [--genesis FILE] [--forkchoice FILE] CHAIN.rlp...

import executes and validates the blocks of geth-format RLP chain files onto the data dir's
chain (created from --genesis on first use), then exits; \`start --data-dir DIR\` serves it.
Without --forkchoice, a headfcu.json beside the first chain file sets the safe and finalized blocks.

Flags:
  --host HOST            interface to bind (default ${DEFAULTS.host})
  --port PORT            port to listen on, 0 for any free one (default ${DEFAULTS.port})
  --data-dir DIR         LevelDB directory holding the chain (default ${DEFAULTS.dataDir})
  --chain-id ID          chain id of the dev chain (default ${DEFAULTS.chainId})
  --mnemonic WORDS       mnemonic of the dev accounts (default: the well-known test mnemonic)
  --accounts N           number of funded dev accounts (default ${DEFAULTS.accounts})
  --balance ETH          balance of each dev account in ether (default 10000)
  --genesis FILE         start from a geth-format genesis.json instead of the dev chain
  --forkchoice FILE      import: an engine_forkchoiceUpdated request naming the safe and finalized blocks
  --import CHAIN.rlp     start: import a chain file while serving (repeatable; eth_syncing shows progress)
  --hardfork NAME        fork of the dev chain: ${DEV_HARDFORKS.join(', ')} (default ${DEFAULTS.hardfork})
  --gas-limit GAS        block gas limit of the dev chain (default ${DEFAULTS.gasLimit})
  --block-time SECONDS   mine a block every SECONDS instead of on each transaction
  --no-mining            mine only on evm_mine
  --txpool-limit N       capacity of the transaction pool (default ${DEFAULTS.txpoolLimit})
  --filter-timeout SECS  drop a filter unpolled this long while blocks arrive (default ${DEFAULTS.filterTimeout})
  --max-filters N        most installed filters, and subscriptions per WebSocket (default ${DEFAULTS.maxFilters})
  --logs-max-blocks N    most blocks one eth_getLogs may span (default ${DEFAULTS.logsMaxBlocks})
  --logs-max-results N   most logs one eth_getLogs may return (default ${DEFAULTS.logsMaxResults})
  --ws-max-backlog BYTES close a WebSocket whose unsent output passes this (default ${DEFAULTS.wsMaxBacklog})
  --call-workers N       threads running eth_call and eth_estimateGas beside the main one, 0 for none (default ${DEFAULTS.callWorkers} here)
  --cors ORIGINS         comma-separated browser origins allowed to call, '*' for any (default: localhost origins)
  --allowed-hosts HOSTS  comma-separated Host header values accepted, '*' for any (default ${DEFAULTS.allowedHosts.join(',')})
  --log-level LEVEL      error, warn, info or debug (default ${DEFAULTS.logLevel})
  -h, --help             show this help
`;

export class ConfigError extends Error {}

const list = (value: string) => value.split(',').map((item) => item.trim()).filter((item) => item.length > 0);

function integer(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new ConfigError(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return n;
}

function bigint(name: string, value: string): bigint {
  if (!/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) throw new ConfigError(`--${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return BigInt(value);
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
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'chain-id': { type: 'string' },
        mnemonic: { type: 'string' },
        accounts: { type: 'string' },
        balance: { type: 'string' },
        genesis: { type: 'string' },
        forkchoice: { type: 'string' },
        import: { type: 'string', multiple: true },
        hardfork: { type: 'string' },
        'gas-limit': { type: 'string' },
        'block-time': { type: 'string' },
        'no-mining': { type: 'boolean' },
        'txpool-limit': { type: 'string' },
        'filter-timeout': { type: 'string' },
        'max-filters': { type: 'string' },
        'logs-max-blocks': { type: 'string' },
        'logs-max-results': { type: 'string' },
        'ws-max-backlog': { type: 'string' },
        'call-workers': { type: 'string' },
        cors: { type: 'string' },
        'allowed-hosts': { type: 'string' },
        'log-level': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command = 'start', ...rest] = positionals;
  const config: NodeConfig = { ...DEFAULTS, genesisFlagsGiven: false };
  if (values.host !== undefined) config.host = values.host;
  if (values.port !== undefined) config.port = integer('port', values.port, 0);
  if (config.port > 65535) throw new ConfigError('--port must be at most 65535');
  if (values['data-dir'] !== undefined) config.dataDir = values['data-dir'];
  if (values['chain-id'] !== undefined) config.chainId = bigint('chain-id', values['chain-id']);
  if (values.mnemonic !== undefined) config.mnemonic = values.mnemonic;
  if (values.accounts !== undefined) config.accounts = integer('accounts', values.accounts, 0);
  if (values.balance !== undefined) config.balance = bigint('balance', values.balance) * 10n ** 18n;
  if (values.genesis !== undefined) config.genesis = values.genesis;
  if (values.forkchoice !== undefined) config.forkchoice = values.forkchoice;
  if (values.import !== undefined) config.importFiles = values.import;
  if (values.hardfork !== undefined) {
    const fork = values.hardfork.toLowerCase();
    if (!DEV_HARDFORKS.includes(fork)) throw new ConfigError(`--hardfork must be one of ${DEV_HARDFORKS.join(', ')}, got ${JSON.stringify(values.hardfork)}`);
    config.hardfork = fork;
  }
  if (values['gas-limit'] !== undefined) config.gasLimit = bigint('gas-limit', values['gas-limit']);
  if (values['block-time'] !== undefined) config.blockTime = integer('block-time', values['block-time'], 0);
  if (values['no-mining'] === true) config.mining = false;
  if (values['txpool-limit'] !== undefined) config.txpoolLimit = integer('txpool-limit', values['txpool-limit'], 1);
  if (values['filter-timeout'] !== undefined) config.filterTimeout = integer('filter-timeout', values['filter-timeout'], 1);
  if (values['max-filters'] !== undefined) config.maxFilters = integer('max-filters', values['max-filters'], 1);
  if (values['logs-max-blocks'] !== undefined) config.logsMaxBlocks = integer('logs-max-blocks', values['logs-max-blocks'], 1);
  if (values['logs-max-results'] !== undefined) config.logsMaxResults = integer('logs-max-results', values['logs-max-results'], 1);
  if (values['ws-max-backlog'] !== undefined) config.wsMaxBacklog = integer('ws-max-backlog', values['ws-max-backlog'], 1024);
  if (values['call-workers'] !== undefined) config.callWorkers = integer('call-workers', values['call-workers'], 0);
  if (values.cors !== undefined) config.cors = list(values.cors);
  if (values['allowed-hosts'] !== undefined) config.allowedHosts = list(values['allowed-hosts']);
  if (values['log-level'] !== undefined) {
    const level = values['log-level'];
    if (!['error', 'warn', 'info', 'debug'].includes(level)) throw new ConfigError(`--log-level must be error, warn, info or debug, got ${JSON.stringify(level)}`);
    config.logLevel = level as LogLevel;
  }
  config.genesisFlagsGiven = ['chain-id', 'mnemonic', 'accounts', 'balance', 'genesis', 'hardfork', 'gas-limit'].some(
    (flag) => values[flag as keyof typeof values] !== undefined,
  );
  return { command, config, positionals: rest, help: values.help === true };
}
