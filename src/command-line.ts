// The command line → a command and its config: each flag's value parsed or refused with a message naming it.
import { parseArgs } from 'node:util';
import { Hardfork } from '@ethereumjs/common';
import { DEV_HARDFORKS } from './chain/dev-genesis.js';
import { mnemonicProblem, normalizeMnemonic } from './chain/mnemonic.js';
import { COMMANDS, ConfigError, DEFAULTS, FORK_DEFAULTS, type ForkConfig, type NodeConfig } from './config.js';
import { bigint, choice, ether, integer, list, seconds } from './config-values.js';
import { FLAGS } from './flags.js';
import { MAX_ANSWER_BYTES } from './format/answer-budget.js';
import { LOG_LEVELS } from './log.js';
import { didYouMean } from './suggest.js';

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

/** --fork-block-number: a block, or below zero that many before the remote's head (anvil's), which only the remote can tell. */
function forkBlockNumber(value: string, offline: boolean): bigint {
  if (!value.startsWith('-')) return bigint('fork-block-number', value);
  if (!/^-[0-9]+$/.test(value)) throw new ConfigError(`--fork-block-number must be a block number, or below zero that many blocks before the remote's head, got ${JSON.stringify(value)}`);
  if (offline) throw new ConfigError(`--fork-block-number ${value} counts back from the remote's head, which --offline does not ask: name the block`);
  return BigInt(value);
}

/** The --fork-* flags as a fork's settings; undefined when none asks for a fork. */
function forkConfig(values: Record<string, string | boolean | string[] | undefined>, config: NodeConfig): ForkConfig | undefined {
  const string = (name: string) => values[name] as string | undefined;
  // anvil's URL@BLOCK: the block after the last '@', where the URL's own '@' (credentials) is followed by a host.
  const [, url, at] = /^(.*)@([0-9]+)$/.exec(string('fork-url') ?? '') ?? [undefined, string('fork-url'), undefined];
  if (at !== undefined && string('fork-block-number') !== undefined) throw new ConfigError(`--fork-url names block ${at} after its '@', and --fork-block-number another: give one`);
  const block = at ?? string('fork-block-number');
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
    blockNumber: block === undefined ? undefined : forkBlockNumber(block, offline),
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
