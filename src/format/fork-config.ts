// EIP-7910's view of the chain's forks (eth_config), computed as geth computes it from the genesis
// config: the time-based fork in force, the next one and the last one, each with its blob schedule,
// its EIP-6122 fork id, and the precompiles and system contracts it has, by geth's names.
import { crc32 } from 'node:zlib';
import type { ForkConfig, ForkSchedule } from '../../generated/types.js';
import { toQuantity } from './quantity.js';
import { loadEvmLibrary, type EvmLibrary } from '../state/vm.js';
import type { ForkCommons } from '../chain/fork-commons.js';
import type { GethGenesis } from '../chain/genesis.js';

/** The forks EIP-7910 describes, in order: each activates at a timestamp (`${fork}Time` in the genesis config). */
const TIME_FORKS = ['shanghai', 'cancun', 'prague', 'osaka', 'bpo1', 'bpo2', 'bpo3', 'bpo4', 'bpo5', 'amsterdam'] as const;
type TimeFork = (typeof TIME_FORKS)[number];

/** geth's names of the precompiles, by address. */
const PRECOMPILE_NAMES: Record<string, string> = {
  '0000000000000000000000000000000000000001': 'ECREC',
  '0000000000000000000000000000000000000002': 'SHA256',
  '0000000000000000000000000000000000000003': 'RIPEMD160',
  '0000000000000000000000000000000000000004': 'ID',
  '0000000000000000000000000000000000000005': 'MODEXP',
  '0000000000000000000000000000000000000006': 'BN254_ADD',
  '0000000000000000000000000000000000000007': 'BN254_MUL',
  '0000000000000000000000000000000000000008': 'BN254_PAIRING',
  '0000000000000000000000000000000000000009': 'BLAKE2F',
  '000000000000000000000000000000000000000a': 'KZG_POINT_EVALUATION',
  '000000000000000000000000000000000000000b': 'BLS12_G1ADD',
  '000000000000000000000000000000000000000c': 'BLS12_G1MSM',
  '000000000000000000000000000000000000000d': 'BLS12_G2ADD',
  '000000000000000000000000000000000000000e': 'BLS12_G2MSM',
  '000000000000000000000000000000000000000f': 'BLS12_PAIRING_CHECK',
  '0000000000000000000000000000000000000010': 'BLS12_MAP_FP_TO_G1',
  '0000000000000000000000000000000000000011': 'BLS12_MAP_FP2_TO_G2',
  '0000000000000000000000000000000000000100': 'P256VERIFY',
};

/** The system contracts' addresses (EIP-4788, EIP-2935, EIP-7002, EIP-7251). */
const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';
const HISTORY_STORAGE = '0x0000f90827f1c53a10cb7a02335b175320002935';
const WITHDRAWAL_QUEUE = '0x00000961ef480eb55e80d19ad83579a64c007002';
const CONSOLIDATION_QUEUE = '0x0000bbddc7ce488642fb579f8b00f3a590007251';
const ZERO_ADDRESS = `0x${'00'.repeat(20)}`;

type Config = Record<string, unknown>;

const sortedObject = (entries: [string, string][]) => Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The configured activation time of `fork`, if it is configured. */
function timeOf(config: Config, fork: TimeFork): bigint | undefined {
  const value = config[`${fork}Time`];
  return value === undefined || value === null ? undefined : BigInt(value as number | string);
}

/** geth's LatestFork: the last time-based fork active at `time` (undefined: none, the chain is still on block-based forks). */
function latestFork(config: Config, time: bigint): number | undefined {
  for (let i = TIME_FORKS.length - 1; i >= 0; i--) {
    const at = timeOf(config, TIME_FORKS[i]);
    if (at !== undefined && at <= time) return i;
  }
  return undefined;
}

/**
 * EIP-6122's FORK_HASH at `time`: CRC32 of the genesis hash, updated with every block fork after
 * genesis and every time fork after the genesis time up to `time`, each as 8 big-endian bytes.
 */
function forkId(config: Config, genesisHash: Uint8Array, genesisTime: bigint, time: bigint): string {
  const byBlock = new Set<bigint>();
  const byTime = new Set<bigint>();
  for (const [key, value] of Object.entries(config)) {
    if (typeof value !== 'number' && typeof value !== 'string') continue;
    if (key.endsWith('Block')) byBlock.add(BigInt(value));
    else if (key.endsWith('Time')) byTime.add(BigInt(value));
  }
  const forks = [...[...byBlock].filter((n) => n > 0n).sort((a, b) => (a < b ? -1 : 1)), ...[...byTime].filter((t) => t > genesisTime && t <= time).sort((a, b) => (a < b ? -1 : 1))];
  let hash = crc32(genesisHash);
  for (const fork of forks) {
    const bytes = Buffer.alloc(8);
    bytes.writeBigUInt64BE(fork);
    hash = crc32(bytes, hash);
  }
  return `0x${hash.toString(16).padStart(8, '0')}`;
}

export interface ChainForks {
  spec: GethGenesis;
  genesisHash: Uint8Array;
  genesisTime: bigint;
  commons: ForkCommons;
}

/** One fork's rules, as eth_config shows them. */
function describe(chain: ChainForks, evm: EvmLibrary, fork: number, number: bigint): ForkConfig {
  const config: Config = { ...chain.spec.config };
  const name = TIME_FORKS[fork];
  const time = timeOf(config, name)!;
  const blob = (config.blobSchedule as Record<string, { target: number; max: number; baseFeeUpdateFraction: number }> | undefined)?.[name];
  const common = chain.commons.at({ number, timestamp: time });
  const precompiles = [...evm.getActivePrecompiles(common).keys()].map((address): [string, string] => [PRECOMPILE_NAMES[address] ?? `0x${address}`, `0x${address}`]);
  const systemContracts: [string, string][] = [];
  if (fork >= TIME_FORKS.indexOf('cancun')) systemContracts.push(['BEACON_ROOTS_ADDRESS', BEACON_ROOTS]);
  if (fork >= TIME_FORKS.indexOf('prague')) {
    systemContracts.push(
      ['CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS', CONSOLIDATION_QUEUE],
      ['DEPOSIT_CONTRACT_ADDRESS', ((config.depositContractAddress as string | undefined) ?? ZERO_ADDRESS).toLowerCase()],
      ['HISTORY_STORAGE_ADDRESS', HISTORY_STORAGE],
      ['WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS', WITHDRAWAL_QUEUE],
    );
  }
  return {
    // A fork active from genesis on reports 0.
    activationTime: Number(chain.genesisTime >= time ? 0n : time),
    blobSchedule: blob === undefined ? null : { target: blob.target, max: blob.max, baseFeeUpdateFraction: blob.baseFeeUpdateFraction },
    chainId: toQuantity(common.chainId()),
    forkId: forkId(config, chain.genesisHash, chain.genesisTime, time),
    precompiles: sortedObject(precompiles),
    systemContracts: sortedObject(systemContracts),
  };
}

/** eth_config at a head of `number` and `time`: the fork in force, the next one, the last one (geth's rules for which). */
export async function ethConfig(chain: ChainForks, head: { number: bigint; timestamp: bigint }): Promise<ForkSchedule> {
  const evm = await loadEvmLibrary();
  const config: Config = { ...chain.spec.config };
  const current = latestFork(config, head.timestamp);
  const at = (fork: number | undefined) => (fork === undefined || fork >= TIME_FORKS.length || timeOf(config, TIME_FORKS[fork]) === undefined ? null : describe(chain, evm, fork, head.number));
  // As geth: the fork after the current one, if it is scheduled; the last one only when a next one is.
  const next = at(current === undefined ? 0 : current + 1);
  return {
    current: at(current),
    next,
    last: next === null ? null : at(latestFork(config, (1n << 64n) - 1n)),
  };
}
