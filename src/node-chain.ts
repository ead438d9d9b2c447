// Which chain a starting node serves, and how it opens: the --genesis file read and checked, a fork
// (asked for, or the one the data dir holds), the chain the data dir holds, or a fresh dev chain.
import { readFile } from 'node:fs/promises';
import { Chain, GenesisMismatchError } from './chain/chain.js';
import { deriveAccounts } from './chain/dev-accounts.js';
import { devGenesis } from './chain/dev-genesis.js';
import { commonFromGenesis, type NodeGenesis } from './chain/genesis.js';
import { ConfigError, FORK_DEFAULTS, type ForkConfig, type GenesisSettings, type NodeConfig } from './config.js';
import { ForkStateMissing } from './fork/proof-records.js';
import type { ForkStore } from './fork/fork-store.js';
import { openForkedChain, storedFork, type ForkReset } from './fork/open-fork.js';
import { RemoteError } from './fork/remote.js';
import { ForkUnavailable } from './fork/unavailable.js';
import type { Logger } from './log.js';
import type { Database } from './storage/database.js';
import { StorageDamage } from './storage/damage.js';
import { DataDirRefused, StorageFault } from './storage/storage-fault.js';

const FILE_ERRORS: Record<string, string> = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'it is a directory' };

/** The --genesis file, read and checked as a genesis before anything is written. */
export async function readGenesisFlag(path: string): Promise<NodeGenesis> {
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
  return { spec: devSpec(config), devChain: true };
}

/** How a data dir's fork is served when started without --fork-url: from its cache alone. */
export const RESUMED_OFFLINE: ForkConfig = { offline: true, headers: {}, ...FORK_DEFAULTS, cache: true };

/**
 * The chain to serve: a fork when the flags ask for one or the data dir holds one (resumed with the
 * flags' remote, else offline), else the genesis chooseGenesis picks. A fork's dev accounts are
 * funded on it, so their keys are shown.
 */
export async function openFirstChain(config: NodeConfig, db: Database, given: NodeGenesis | undefined, log: Logger, kept?: ForkStore): Promise<{ chain: Chain; devChain: boolean }> {
  const stored = given === undefined ? await Chain.storedGenesisSpec(db) : undefined;
  if (config.fork !== undefined || storedFork(stored) !== undefined) {
    const fork = config.fork ?? RESUMED_OFFLINE;
    return { chain: await openFork(db, fork, stored, config, log, undefined, kept), devChain: true };
  }
  const { spec, devChain } = await chooseGenesis(config, db, given);
  return { chain: await openChain(db, spec, given === undefined ? undefined : config.genesis, log), devChain };
}

/** A forked chain (see openForkedChain; `kept`: the open cache of the chain a reset replaces). */
export async function openFork(db: Database, fork: ForkConfig, stored: NodeGenesis | undefined, config: NodeConfig, log: Logger, reset?: ForkReset, kept?: ForkStore): Promise<Chain> {
  await db.open();
  const accounts = deriveAccounts(config.mnemonic, config.accounts).map((account) => account.address);
  try {
    return await openForkedChain(db, fork, fork, stored, { accounts, balance: config.balance }, (message) => log.warn(message), reset, kept);
  } catch (error) {
    if (error instanceof RemoteError || error instanceof ForkStateMissing) throw new ForkUnavailable(error.message);
    if (error instanceof StorageDamage) throw new DataDirRefused(error.message);
    throw error;
  }
}

/** The dev chain's genesis for the genesis settings of `config`. */
export function devSpec(config: GenesisSettings): NodeGenesis {
  const accounts = deriveAccounts(config.mnemonic, config.accounts).map((a) => a.address);
  const spec = devGenesis({ chainId: config.chainId, hardfork: config.hardfork, accounts, balance: config.balance, gasLimit: config.gasLimit, timestamp: config.timestamp, baseFee: config.baseFee });
  return { ...spec, evmNodeDev: true };
}

/**
 * Opens the chain of `spec` (migrating an older data dir, which `log` hears of); one a --genesis
 * `file` gave that cannot be built is the command line's fault.
 */
async function openChain(db: Database, spec: NodeGenesis, file: string | undefined, log: Logger): Promise<Chain> {
  try {
    return await Chain.open(db, spec, (message) => log.info(message));
  } catch (error) {
    // Damage met while opening: the data dir is refused, as one whose head does not check.
    if (error instanceof StorageDamage) throw new DataDirRefused(error.message);
    if (file === undefined || error instanceof DataDirRefused || error instanceof GenesisMismatchError || error instanceof StorageFault) throw error;
    throw new ConfigError(`--genesis ${file} cannot be used: ${(error as Error).message}`);
  }
}
