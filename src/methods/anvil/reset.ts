import type { GenesisSettings as RpcGenesisSettings } from '../../../generated/types.js';
import { mnemonicProblem, normalizeMnemonic } from '../../chain/mnemonic.js';
import type { GenesisSettings } from '../../config.js';
import { MAX_GAS_LIMIT, MIN_GAS_LIMIT } from '../../producer/next-block.js';
import { invalidParams } from '../../rpc/errors.js';
import { MAX_CHAIN_ID, refuseWhileImporting } from '../chain-replacement.js';
import type { Handlers, MethodServices } from '../services.js';

/** Hardhat's `httpHeaders`: names to string values, anything else refused. */
function httpHeaders(given: Record<string, unknown>): Record<string, string> {
  for (const [name, value] of Object.entries(given)) {
    if (typeof value !== 'string') throw invalidParams(`invalid argument 0 (options.forking.httpHeaders.${name}): a string, got ${JSON.stringify(value)}`);
  }
  return given as Record<string, string>;
}

/** The contract's genesis settings as the node's, each checked against what a genesis may hold. */
function genesisSettings(given: RpcGenesisSettings): Partial<GenesisSettings> {
  const settings: Partial<GenesisSettings> = {};
  if (given.chainId !== undefined) {
    const chainId = BigInt(given.chainId);
    if (chainId < 1n || chainId > MAX_CHAIN_ID) throw invalidParams(`invalid argument 0 (options.genesis.chainId): ${chainId} is not between 1 and ${MAX_CHAIN_ID}`);
    settings.chainId = chainId;
  }
  if (given.gasLimit !== undefined) {
    const gasLimit = BigInt(given.gasLimit);
    if (gasLimit < MIN_GAS_LIMIT || gasLimit > MAX_GAS_LIMIT) throw invalidParams(`invalid argument 0 (options.genesis.gasLimit): ${gasLimit} is not between ${MIN_GAS_LIMIT} and ${MAX_GAS_LIMIT}`);
    settings.gasLimit = gasLimit;
  }
  if (given.balance !== undefined) settings.balance = BigInt(given.balance);
  if (given.hardfork !== undefined) settings.hardfork = given.hardfork;
  if (given.accounts !== undefined) settings.accounts = given.accounts;
  if (given.mnemonic !== undefined) {
    const mnemonic = normalizeMnemonic(given.mnemonic);
    const problem = mnemonicProblem(mnemonic);
    if (problem !== undefined) throw invalidParams(`invalid argument 0 (options.genesis.mnemonic): ${problem}`);
    settings.mnemonic = mnemonic;
  }
  return settings;
}

export function anvil_reset({ chain, node, sync }: Pick<MethodServices, 'chain' | 'node' | 'sync'>): Handlers['anvil_reset'] {
  return async ([options]) => {
    refuseWhileImporting({ sync });
    const forking = options?.forking;
    const url = forking?.jsonRpcUrl ?? undefined;
    if (url !== undefined && !/^(https?|wss?):\/\//i.test(url)) throw invalidParams(`invalid argument 0 (options.forking.jsonRpcUrl): an http(s):// or ws(s):// URL, got ${JSON.stringify(url)}`);
    if (options?.genesis !== undefined && forking != null && (url !== undefined || forking.blockNumber != null)) {
      throw invalidParams('invalid argument 0: genesis and forking exclude each other');
    }
    const blockNumber = forking?.blockNumber == null ? undefined : BigInt(forking.blockNumber);
    if (url === undefined && blockNumber !== undefined && chain.fork === undefined) {
      throw invalidParams('invalid argument 0 (options.forking): a blockNumber without a jsonRpcUrl, and the node forks no remote chain');
    }
    const headers = forking?.httpHeaders == null ? undefined : httpHeaders(forking.httpHeaders);
    // `forking` as an object, even an empty one (viem's reset()), keeps a forked node forked; none leaves the fork, as anvil and Hardhat do.
    const fork = forking == null ? undefined : { url, blockNumber, headers };
    await node.reset(options?.genesis === undefined ? undefined : genesisSettings(options.genesis), fork);
    return null;
  };
}
