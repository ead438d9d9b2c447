// A geth-format genesis.json of the caller's making, on disk for --genesis: the dev genesis with
// its config changed (a fork scheduled later, an earlier fork), for specs that need such a chain.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deriveAccounts, DEV_MNEMONIC } from '../../src/chain/dev-accounts.js';
import { devGenesis } from '../../src/chain/dev-genesis.js';
import { DEFAULTS } from '../../src/config.js';
import { tempDirRemovedAtExit } from './temp-dir.js';

/** Writes the default dev genesis with `change` applied to its config (and the rest of it); answers the file's path. */
export async function genesisFileWith(change: (config: Record<string, unknown>, genesis: Record<string, unknown>) => void, hardfork = DEFAULTS.hardfork): Promise<string> {
  const spec = devGenesis({ chainId: DEFAULTS.chainId, hardfork, accounts: deriveAccounts(DEV_MNEMONIC, 3).map((a) => a.address), balance: DEFAULTS.balance, gasLimit: DEFAULTS.gasLimit });
  change(spec.config as unknown as Record<string, unknown>, spec as unknown as Record<string, unknown>);
  const path = join(tempDirRemovedAtExit('evm-node-genesis-'), 'genesis.json');
  await writeFile(path, JSON.stringify(spec));
  return path;
}
