import { Common, Hardfork, Mainnet, type GethGenesis, type GethGenesisAlloc, type GethGenesisBlobSchedule, type GethGenesisConfig } from '@ethereumjs/common';
import systemContracts from './system-contracts.json' with { type: 'json' };

export interface DevGenesisOptions {
  chainId: bigint;
  hardfork: string;
  /** lowercase 0x addresses to fund */
  accounts: string[];
  balance: bigint;
  gasLimit: bigint;
  /** the genesis block's timestamp; DEV_GENESIS_TIMESTAMP by default */
  timestamp?: bigint;
  /** the genesis block's base fee where EIP-1559 is active; DEV_INITIAL_BASE_FEE by default */
  baseFee?: bigint;
}

type BpoKey = `bpo${1 | 2 | 3 | 4 | 5}Time`;
/** geth's chain config; @ethereumjs/common's type does not know the keys of Osaka and the BPO forks yet. */
type ChainConfig = GethGenesisConfig & { osakaTime?: number } & Partial<Record<BpoKey, number>>;
type ForkKey = { [K in keyof ChainConfig]-?: ChainConfig[K] extends number | undefined ? (K extends 'chainId' | 'terminalTotalDifficulty' ? never : K) : never }[keyof ChainConfig];

/** Forks in activation order, with the geth config key that schedules each at genesis. */
const FORKS: [Hardfork, ForkKey][] = [
  [Hardfork.Homestead, 'homesteadBlock'],
  [Hardfork.TangerineWhistle, 'eip150Block'],
  [Hardfork.SpuriousDragon, 'eip155Block'],
  [Hardfork.SpuriousDragon, 'eip158Block'],
  [Hardfork.Byzantium, 'byzantiumBlock'],
  [Hardfork.Constantinople, 'constantinopleBlock'],
  [Hardfork.Petersburg, 'petersburgBlock'],
  [Hardfork.Istanbul, 'istanbulBlock'],
  [Hardfork.MuirGlacier, 'muirGlacierBlock'],
  [Hardfork.Berlin, 'berlinBlock'],
  [Hardfork.London, 'londonBlock'],
  [Hardfork.ArrowGlacier, 'arrowGlacierBlock'],
  [Hardfork.GrayGlacier, 'grayGlacierBlock'],
  [Hardfork.Paris, 'mergeNetsplitBlock'],
  [Hardfork.Shanghai, 'shanghaiTime'],
  [Hardfork.Cancun, 'cancunTime'],
  [Hardfork.Prague, 'pragueTime'],
  [Hardfork.Osaka, 'osakaTime'],
];

export const DEV_HARDFORKS: readonly string[] = [...new Set(FORKS.map(([fork]) => fork))];

const BLOB_SCHEDULE: GethGenesisBlobSchedule = {
  cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
  prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
  osaka: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
};

/** A fixed timestamp keeps the dev genesis hash the same on every machine and every run. */
export const DEV_GENESIS_TIMESTAMP = 1735689600n;
export const DEV_INITIAL_BASE_FEE = 1_000_000_000n;

const hex = (n: bigint): `0x${string}` => `0x${n.toString(16)}`;

/**
 * The dev chain as a geth-format genesis: every fork up to `hardfork` active from block 0,
 * the dev accounts funded, and the system contracts the active forks call each block.
 */
export function devGenesis(opts: DevGenesisOptions): GethGenesis {
  const { config, active } = chainConfigUpTo(opts.chainId, opts.hardfork);
  const alloc: GethGenesisAlloc = {};
  for (const [address, contract] of Object.entries(systemContracts)) {
    alloc[address] = { balance: contract.balance, nonce: contract.nonce, code: contract.code };
  }
  for (const address of opts.accounts) alloc[address] = { balance: hex(opts.balance) };
  const london = active.some(([fork]) => fork === Hardfork.London);
  const postMerge = active.some(([fork]) => fork === Hardfork.Paris);
  return {
    config,
    nonce: '0x0',
    timestamp: hex(opts.timestamp ?? DEV_GENESIS_TIMESTAMP),
    extraData: '0x',
    gasLimit: hex(opts.gasLimit),
    difficulty: postMerge ? '0x0' : '0x1',
    mixHash: `0x${'00'.repeat(32)}`,
    coinbase: `0x${'00'.repeat(20)}`,
    baseFeePerGas: london ? hex(opts.baseFee ?? DEV_INITIAL_BASE_FEE) : undefined,
    alloc,
  };
}

/**
 * A BPO fork's blob parameters (EIP-7892) as a geth genesis' blobSchedule names them, from the
 * engine's definition of the fork (the same on every public chain that has run one).
 */
function bpoBlobSchedule(fork: string): GethGenesisBlobSchedule[string] {
  const common = new Common({ chain: Mainnet, hardfork: fork });
  return { target: Number(common.param('target')), max: Number(common.param('max')), baseFeeUpdateFraction: Number(common.param('blobGasPriceUpdateFraction')) };
}

/**
 * A chain config with every fork up to `hardfork` active from block 0 (and its blob schedule). A BPO
 * fork (`bpo2`: a forked public chain's) brings Osaka and the BPO forks up to it.
 */
export function chainConfigUpTo(chainId: bigint, hardfork: string): { config: ChainConfig; active: [Hardfork, ForkKey][] } {
  const bpo = /^bpo(\d+)$/.exec(hardfork);
  const last = FORKS.findLastIndex(([fork]) => fork === (bpo === null ? hardfork : Hardfork.Osaka));
  if (last < 0) throw new Error(`unknown hardfork ${hardfork}; one of: ${DEV_HARDFORKS.join(', ')}`);
  const active = FORKS.slice(0, last + 1);
  const config: ChainConfig = { chainId: Number(chainId) };
  const blobSchedule: GethGenesisBlobSchedule = {};
  for (const [fork, key] of active) {
    config[key] = 0;
    if (fork in BLOB_SCHEDULE) blobSchedule[fork] = BLOB_SCHEDULE[fork];
  }
  for (let n = 1; bpo !== null && n <= Number(bpo[1]); n++) {
    config[`bpo${n}Time` as BpoKey] = 0;
    blobSchedule[`bpo${n}`] = bpoBlobSchedule(`bpo${n}`);
  }
  if (Object.keys(blobSchedule).length > 0) config.blobSchedule = blobSchedule;
  if (active.some(([fork]) => fork === Hardfork.Paris)) {
    config.terminalTotalDifficulty = 0;
    config.terminalTotalDifficultyPassed = true;
  }
  return { config, active };
}
