import { bytesToHex } from '@ethereumjs/util';
import type { AnvilResetParams, AnvilSetLoggingEnabledParams, GenesisSettings as RpcGenesisSettings } from '../../../generated/types.js';
import { mnemonicProblem, normalizeMnemonic } from '../../chain/mnemonic.js';
import type { GenesisSettings } from '../../config.js';
import { SUGGESTED_TIP } from '../../fees/fees.js';
import { MAX_GAS_LIMIT, MIN_GAS_LIMIT } from '../../producer/next-block.js';
import { toQuantity } from '../../format/quantity.js';
import type { ForkInfo } from '../../fork/chain-fork.js';
import { invalidParams, serverError } from '../../rpc/errors.js';
import { clientVersion } from '../net/net.js';
import type { Handlers, Services } from '../services.js';
import { inBothDialects } from './dialects.js';

/**
 * The largest chain id MetaMask accepts: a legacy signature's v (2·id + 35 or 36) stays a number
 * JSON and JavaScript hold exactly (clients keep chain ids and v as numbers; past it, signing fails).
 */
const MAX_CHAIN_ID = 4_503_599_627_370_476n;

type Deps = Pick<Services, 'chain' | 'nextBlock' | 'node' | 'sync'>;

/** The node as a whole: what it reports about itself, reset, logging. */
export function nodeMethods({ chain, nextBlock, node, sync }: Deps): Pick<
  Handlers,
  | 'anvil_nodeInfo'
  | 'hardhat_metadata'
  | 'anvil_reset'
  | 'hardhat_reset'
  | 'anvil_setLoggingEnabled'
  | 'hardhat_setLoggingEnabled'
  | 'anvil_setRpcUrl'
  | 'hardhat_setRpcUrl'
  | 'anvil_setChainId'
> {
  const [anvil_reset, hardhat_reset] = inBothDialects(async ([options]: AnvilResetParams) => {
    if (sync.status() !== false) throw serverError('cannot reset while a chain import runs; wait until eth_syncing answers false');
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
    const fork = url !== undefined || blockNumber !== undefined ? { url, blockNumber, headers } : undefined;
    await node.reset(options?.genesis === undefined ? undefined : genesisSettings(options.genesis), fork);
  });
  const [anvil_setRpcUrl, hardhat_setRpcUrl] = inBothDialects(async ([url]: [string]) => {
    if (!/^(https?|wss?):\/\//i.test(url)) throw invalidParams(`invalid argument 0: an http(s):// or ws(s):// URL, got ${JSON.stringify(url)}`);
    // The same fork block read from another endpoint of the same chain; a node that forks nothing forks the URL's head.
    await node.reset(undefined, { url, blockNumber: chain.fork?.info.number });
  });
  const [anvil_setLoggingEnabled, hardhat_setLoggingEnabled] = inBothDialects(async ([on]: AnvilSetLoggingEnabledParams) => node.setLogging(on));
  return {
    anvil_setChainId: async ([chainId]) => {
      if (sync.status() !== false) throw serverError('cannot reset while a chain import runs; wait until eth_syncing answers false');
      if (chain.fork !== undefined) throw invalidParams(`invalid argument 0 (chainId): a forked chain keeps its remote's chain id (${chain.commons.base.chainId()}); anvil_reset with forking, or --chain-id at start, gives another`);
      const id = BigInt(chainId);
      if (id < 1n || id > MAX_CHAIN_ID) throw invalidParams(`invalid argument 0 (chainId): ${id} is not between 1 and ${MAX_CHAIN_ID}`);
      await node.setChainId(id);
      return null;
    },
    anvil_nodeInfo: async () => {
      const head = chain.head();
      const common = chain.nextCommon();
      const baseFee = nextBlock.baseFeeOn(head.header, common);
      return {
        currentBlockNumber: toQuantity(head.header.number),
        currentBlockTimestamp: Number(head.header.timestamp),
        currentBlockHash: bytesToHex(head.hash()),
        hardFork: common.hardfork(),
        transactionOrder: 'fees',
        environment: {
          baseFee: toQuantity(baseFee),
          chainId: Number(common.chainId()),
          gasLimit: toQuantity(nextBlock.gasLimitOn(head.header)),
          gasPrice: toQuantity(baseFee + SUGGESTED_TIP),
        },
        forkConfig: forkConfig(chain.fork?.info, node.forkRetryBackoffMs, chain.fork?.forkState.values === undefined),
      };
    },
    hardhat_metadata: async () => {
      const head = chain.head();
      const fork = chain.fork?.info;
      return {
        clientVersion: clientVersion(),
        chainId: Number(chain.commons.base.chainId()),
        instanceId: node.instanceId,
        latestBlockNumber: Number(head.header.number),
        latestBlockHash: bytesToHex(head.hash()),
        ...(fork === undefined ? {} : { forkedNetwork: { chainId: Number(fork.remoteChainId), forkBlockNumber: Number(fork.number), forkBlockHash: bytesToHex(fork.hash) } }),
      };
    },
    anvil_reset,
    hardhat_reset,
    anvil_setLoggingEnabled,
    hardhat_setLoggingEnabled,
    anvil_setRpcUrl,
    hardhat_setRpcUrl,
  };
}

/** Hardhat's `httpHeaders`: names to string values, anything else refused. */
function httpHeaders(given: Record<string, unknown>): Record<string, string> {
  for (const [name, value] of Object.entries(given)) {
    if (typeof value !== 'string') throw invalidParams(`invalid argument 0 (options.forking.httpHeaders.${name}): a string, got ${JSON.stringify(value)}`);
  }
  return given as Record<string, string>;
}

/** anvil's fork configuration, with the fork block's hash and the remote chain's id besides (all null on a chain that forks nothing). */
function forkConfig(fork: ForkInfo | undefined, retryBackoffMs: number, proofs: boolean) {
  if (fork === undefined) return { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null, forkBlockHash: null, forkChainId: null, offline: false, stateRoots: null };
  return {
    forkUrl: fork.url ?? null,
    forkBlockNumber: Number(fork.number),
    forkRetryBackoff: retryBackoffMs,
    forkBlockHash: bytesToHex(fork.hash),
    forkChainId: Number(fork.remoteChainId),
    offline: fork.offline,
    stateRoots: proofs ? ('real' as const) : ('local' as const),
  };
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
