// The test contracts, compiled from their Solidity source (test/fixtures/contracts/*.sol) with the
// `solc` package's bundled wasm compiler: once per test run, and cached on disk by source hash so a
// later run with unchanged sources skips the compiler (~1.5 s) altogether.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeDeployData, getContractAddress, type Abi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_KEYS } from './node.js';
import { rpc } from './rpc.js';
import { signTx } from './transactions.js';

export type ContractName = 'Token' | 'Reverter' | 'Emitter' | 'Storage' | 'Relay' | 'Greeter' | 'StateOps' | 'Batch';
export const CONTRACT_NAMES: readonly ContractName[] = ['Token', 'Reverter', 'Emitter', 'Storage', 'Relay', 'Greeter', 'StateOps', 'Batch'];

export interface CompiledContract {
  name: ContractName;
  /** The ABI as solc emits it (ethers and viem take it as is). */
  abi: readonly Record<string, unknown>[];
  /** Creation code, 0x-prefixed. */
  bytecode: `0x${string}`;
  /** Runtime code, 0x-prefixed: what eth_getCode answers after deployment. */
  deployedBytecode: `0x${string}`;
}

export type CompiledContracts = Record<ContractName, CompiledContract>;

/** solc's standard-JSON settings; part of the cache key. `cancun` keeps the code valid on every fork the dev chain offers from Cancun on. */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
};

/** The repository root, found from this file wherever tsc put it (dist/, .build/…). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'test', 'fixtures', 'contracts', 'Token.sol')) && existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find test/fixtures/contracts from ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Record<string, unknown>[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
}

function compile(sources: Record<string, { content: string }>): CompiledContracts {
  const require = createRequire(import.meta.url);
  const solc = require('solc') as { compile(input: string): string };
  const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS }))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const compiled = {} as CompiledContracts;
  for (const name of CONTRACT_NAMES) {
    const out = output.contracts[`${name}.sol`]?.[name];
    if (out === undefined) throw new Error(`solc produced no ${name} from ${name}.sol`);
    compiled[name] = {
      name,
      abi: out.abi,
      bytecode: `0x${out.evm.bytecode.object}`,
      deployedBytecode: `0x${out.evm.deployedBytecode.object}`,
    };
  }
  return compiled;
}

let cached: CompiledContracts | undefined;

/** Every test contract, compiled (or read from the on-disk cache when the sources are unchanged). */
export function contracts(): CompiledContracts {
  if (cached !== undefined) return cached;
  const root = repoRoot();
  const dir = join(root, 'test', 'fixtures', 'contracts');
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.sol')).sort()) sources[file] = { content: readFileSync(join(dir, file), 'utf8') };
  const solcVersion = (JSON.parse(readFileSync(join(root, 'node_modules', 'solc', 'package.json'), 'utf8')) as { version: string }).version;
  const key = createHash('sha256').update(JSON.stringify({ sources, SETTINGS, solcVersion })).digest('hex').slice(0, 16);
  const cacheDir = join(root, 'node_modules', '.cache', 'evm-node-contracts');
  const cacheFile = join(cacheDir, `${key}.json`);
  if (existsSync(cacheFile)) {
    cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as CompiledContracts;
    return cached;
  }
  cached = compile(sources);
  try {
    mkdirSync(cacheDir, { recursive: true });
    // Written aside then renamed, so a concurrent run never reads half a file.
    const partial = `${cacheFile}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(cached));
    renameSync(partial, cacheFile);
  } catch {
    // A read-only checkout just compiles every run.
  }
  return cached;
}

/**
 * Deploys `name` from dev key `key` with a signed EIP-1559 transaction and answers its address.
 * With manual mining it mines the block itself (evm_mine), so it works in every mode.
 */
export async function deployContract(node: { url: string }, name: ContractName, args: unknown[] = [], key?: `0x${string}`): Promise<`0x${string}`> {
  const contract = contracts()[name];
  const signer = privateKeyToAccount(key ?? DEV_KEYS[0]);
  const nonce = Number(BigInt(await rpc<string>(node.url, 'eth_getTransactionCount', [signer.address, 'pending'])));
  const data = encodeDeployData({ abi: contract.abi as unknown as Abi, bytecode: contract.bytecode, args });
  const raw = await signTx({ key: key ?? DEV_KEYS[0], nonce, to: null, value: 0n, gas: 3_000_000n, data, maxFeePerGas: 100n * 10n ** 9n });
  const hash = await rpc<string>(node.url, 'eth_sendRawTransaction', [raw]);
  if ((await rpc(node.url, 'eth_getTransactionReceipt', [hash])) === null) await rpc(node.url, 'evm_mine', []);
  const receipt = await rpc<{ status: string; contractAddress: string } | null>(node.url, 'eth_getTransactionReceipt', [hash]);
  if (receipt?.status !== '0x1') throw new Error(`deploying ${name} failed: ${JSON.stringify(receipt)}`);
  const address = getContractAddress({ from: signer.address, nonce: BigInt(nonce) });
  if (receipt.contractAddress !== address.toLowerCase()) throw new Error(`${name} deployed at ${receipt.contractAddress}, expected ${address}`);
  return receipt.contractAddress as `0x${string}`;
}
