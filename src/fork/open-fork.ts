import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { Account, bigIntToHex, bytesToHex, createAddressFromString, hexToBytes, type Address } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { Chain } from '../chain/chain.js';
import { chainConfigUpTo, DEV_HARDFORKS } from '../chain/dev-genesis.js';
import { ForkCommons } from '../chain/fork-commons.js';
import { commonFromGenesis, type NodeGenesis } from '../chain/genesis.js';
import { keccakInWasm, nativeCrypto } from '../crypto/native.js';
import { StateStore } from '../state/state-store.js';
import { loadVmLibrary } from '../state/vm.js';
import type { BatchOp, Database, DiskDatabase } from '../storage/database.js';
import type { ChainFork, ForkInfo } from './chain-fork.js';
import { ForkedBlockStore } from './forked-block-store.js';
import { ForkHistory } from './fork-history.js';
import { ForkState } from './fork-state.js';
import { readFirst } from './first-reads.js';
import { cachedForks, defaultForkCacheDir, forkStoreInDataDir, forkStoreInDir, forkStoreInMemory, type ForkIdentity, type ForkStore } from './fork-store.js';
import { requestsEraFork } from './known-schedule.js';
import { RemoteError, RemoteRpc } from './remote.js';
import { blockFromRemote, forkOfHeader, remoteUncles, reportedTotalDifficulty, type RemoteBlockJson } from './remote-shapes.js';

/** How to fork: the remote, the block, how to talk to it, and where to cache what it says. */
export interface ForkSettings {
  url?: string;
  /** default: the remote's head at start; below zero, that many blocks before it */
  blockNumber?: bigint;
  headers: Record<string, string>;
  /** the remote's chain id, given so it need not be asked */
  remoteChainId?: bigint;
  retries: number;
  backoffMs: number;
  timeoutMs: number;
  /** serve from the fork cache only: a miss is an error */
  offline: boolean;
  /** default: the per-user cache dir (fork-store.ts) */
  cacheDir?: string;
  /** false: --no-fork-cache, what is fetched is kept in memory only */
  cache: boolean;
}

/** What shapes the forked chain besides the remote: the flags the user set, when set. */
export interface ForkChainSettings {
  chainId?: bigint;
  hardfork?: string;
}

/** A genesis spec as a forked chain's data dir keeps it: the chain config, and which fork it is. */
export type ForkGenesis = NodeGenesis & { evmNodeFork?: { number: string; hash: string; remoteChainId: string } };

/** The fork a data dir holds, from its stored genesis spec. */
export function storedFork(spec: NodeGenesis | undefined): ForkIdentity | undefined {
  const fork = (spec as ForkGenesis | undefined)?.evmNodeFork;
  return fork === undefined ? undefined : { chainId: BigInt(fork.remoteChainId), number: BigInt(fork.number), hash: fork.hash };
}

const keccak = nativeCrypto.keccak256 ?? keccak256;
const isOnDisk = (db: Database): db is DiskDatabase => 'level' in db;

/**
 * Opens the chain of a fork: the fork block and the remote's chain id from the remote (one batch),
 * or from a data dir that holds this fork already, or — offline — from the fork cache. The fork's
 * cache opens by the remote's chain id and the fork block's hash, so a block the remote has since
 * replaced is never read from an older cache. A new chain's dev accounts get `devBalance` on top
 * of the fork block's state (as anvil does); nothing else of the remote changes.
 */
export async function openForkedChain(
  db: Database,
  settings: ForkSettings,
  chainSettings: ForkChainSettings,
  stored: NodeGenesis | undefined,
  dev: { accounts: string[]; balance: bigint },
  log: (message: string) => void,
  reset?: ForkReset,
  /** the cache of the chain a reset replaces, still open: used again when the fork is the same */
  kept?: ForkStore,
): Promise<Chain> {
  // What a fork's first calls need, loaded while the remote answers the first questions rather than
  // amid those calls: a fork hashes every key it reads (trie paths of accounts and slots), which would
  // go to JavaScript until the WebAssembly keccak compiles after 2,000 hashes (~85 ms of the first 300
  // cold eth_calls' CPU), and the VM library (~0.1 s) that a dev node loads at its first call.
  void keccakInWasm();
  void loadVmLibrary();
  // A failure while the fork opens is the opening's error, told once; the log hears of those after.
  let serving = false;
  const warn = (message: string) => serving && log(message);
  const remote = settings.offline || settings.url === undefined ? undefined : new RemoteRpc({ url: settings.url, headers: settings.headers, retries: settings.retries, backoffMs: settings.backoffMs, timeoutMs: settings.timeoutMs, warn });
  let opened: ForkStore | undefined;
  try {
    const resumed = storedFork(stored);
    // A data dir's fork resumes unless another block is named (counting back from the head names none).
    if (resumed !== undefined && (settings.blockNumber === undefined || settings.blockNumber < 0n || settings.blockNumber === resumed.number)) {
      const chain = await resume(db, stored as ForkGenesis, resumed, settings, remote, log, kept);
      serving = true;
      return chain;
    }
    const { identity, json, store } = (reset?.known !== undefined ? await cachedForkBlock(db, reset.known, settings, log, kept) : undefined) ?? (await forkBlock(db, settings, remote, log, kept));
    opened = store;
    const spec = forkSpec(identity, json, chainSettings);
    const devAddresses = dev.accounts.map((account) => createAddressFromString(account));
    // What the fork reads first comes before the chain is written: a remote that fails it fails the
    // fork with nothing written (a reset's old chain still in the data dir).
    const chain = await assemble(db, spec, identity, json, store, remote, reset?.replace, (forkState, common) => readFirst(forkState, common, devAddresses));
    await fundDevAccounts(chain, devAddresses, dev.balance);
    await chain.fork?.forkState.settleMode();
    serving = true;
    return chain;
  } catch (error) {
    remote?.close();
    if (opened !== undefined && opened !== kept) await opened.close();
    throw error;
  }
}

/**
 * Refuses `url` as another endpoint of the fork's remote unless it serves the same chain: its chain
 * id, and the fork block by that number with the fork block's hash.
 */
export async function checkEndpoint(url: string, headers: Record<string, string>, settings: ForkSettings, fork: ForkInfo): Promise<void> {
  const probe = new RemoteRpc({ url, headers, retries: settings.retries, backoffMs: settings.backoffMs, timeoutMs: settings.timeoutMs });
  try {
    const [chainId, block] = await Promise.all([probe.call<string>('eth_chainId', []), probe.call<{ hash?: string } | null>('eth_getBlockByNumber', [bigIntToHex(fork.number), false])]);
    const hash = bytesToHex(fork.hash);
    if (BigInt(chainId) !== fork.remoteChainId || block?.hash?.toLowerCase() !== hash) {
      throw new RemoteError(
        `${probe.shownUrl} serves another chain than the fork's (chain ${BigInt(chainId)}, block ${fork.number} ${block?.hash ?? 'absent'}; the fork's: chain ${fork.remoteChainId}, ${hash}): anvil_reset forks another chain`,
      );
    }
  } finally {
    probe.close();
  }
}

/** What anvil_reset hands a fork it opens in place of the chain: the chain's deletions, and the fork block when it is one already cached. */
export interface ForkReset {
  /** deletions of the chain the fork replaces, landing in the batch that writes the fork block */
  replace: BatchOp[];
  known?: ForkIdentity;
}

/** A fork block already in the fork's cache (a reset to the block the node forks): nothing is asked of the remote. */
async function cachedForkBlock(db: Database, identity: ForkIdentity, settings: ForkSettings, log: (message: string) => void, kept?: ForkStore): Promise<{ identity: ForkIdentity; json: RemoteBlockJson; store: ForkStore } | undefined> {
  const store = await openStore(db, identity, settings, log, kept);
  const json = await storedJson(store);
  if (json !== undefined) return { identity, json, store };
  if (store !== kept) await store.close();
  return undefined;
}

/** The fork block and the remote's chain id: asked of the remote, or offline read from the newest matching fork cache. */
async function forkBlock(db: Database, settings: ForkSettings, remote: RemoteRpc | undefined, log: (message: string) => void, kept?: ForkStore): Promise<{ identity: ForkIdentity; json: RemoteBlockJson; store: ForkStore }> {
  if (remote === undefined) {
    const cacheDir = settings.cacheDir ?? defaultForkCacheDir();
    const [identity] = cachedForks(cacheDir, settings.blockNumber, settings.remoteChainId);
    if (identity === undefined) {
      throw new RemoteError(`--offline: the fork cache ${cacheDir} holds no fork${settings.blockNumber === undefined ? '' : ` at block ${settings.blockNumber}`}; fork once with the remote to fill it`);
    }
    const store = await openStore(db, identity, settings, log, kept);
    const json = await storedJson(store);
    if (json === undefined) throw new RemoteError(`--offline: the fork cache of block ${identity.number} lacks the fork block itself; fork once with the remote to fill it`);
    return { identity, json, store };
  }
  const [chainId, json] = await Promise.all([
    settings.remoteChainId === undefined ? remote.call<string>('eth_chainId', []).then(BigInt) : Promise.resolve(settings.remoteChainId),
    blockAt(remote, settings.blockNumber),
  ]);
  if (settings.remoteChainId !== undefined) checkChainId(json, settings.remoteChainId);
  const identity: ForkIdentity = { chainId, number: BigInt(json.number), hash: json.hash.toLowerCase() };
  // Its uncles' headers are kept with it: a restart reads it from the store alone.
  const withUncles: RemoteBlockJson = { ...json, uncleHeaders: await remoteUncles(json, remote) };
  const store = await openStore(db, identity, settings, log, kept);
  await store.db.meta.put(Buffer.from('forkBlock'), Buffer.from(JSON.stringify(withUncles)));
  return { identity, json: withUncles, store };
}

/** The remote's block `number` (undefined: its head; below zero: that many blocks before its head), with its transactions. */
async function blockAt(remote: RemoteRpc, number: bigint | undefined): Promise<RemoteBlockJson> {
  let tag = number === undefined ? 'latest' : bigIntToHex(number);
  if (number !== undefined && number < 0n) {
    const head = BigInt(await remote.call<string>('eth_blockNumber', []));
    if (head + number < 0n) throw new RemoteError(`the fork's remote ${remote.shownUrl} has ${head + 1n} blocks: none is ${-number} before its head`);
    tag = bigIntToHex(head + number);
  }
  const json = await remote.call<RemoteBlockJson | null>('eth_getBlockByNumber', [tag, true]);
  if (json === null) throw new RemoteError(`the fork's remote ${remote.shownUrl} has no block ${tag === 'latest' ? 'at its head' : BigInt(tag)}`);
  return json;
}

/** Refuses a --fork-chain-id the fork block's typed transactions are not signed for: the block could not be read under it. */
function checkChainId(json: RemoteBlockJson, chainId: bigint): void {
  for (const tx of json.transactions ?? []) {
    if (typeof tx !== 'object' || tx.type === undefined || BigInt(tx.type) === 0n || tx.chainId == null) continue;
    if (BigInt(tx.chainId) !== chainId) throw new RemoteError(`--fork-chain-id ${chainId} is not the remote's chain id: the transactions of its block ${BigInt(json.number)} are signed for chain ${BigInt(tx.chainId)}`);
    return;
  }
}

async function storedJson(store: ForkStore): Promise<RemoteBlockJson | undefined> {
  const bytes = await store.db.meta.get(Buffer.from('forkBlock'));
  return bytes === undefined ? undefined : (JSON.parse(Buffer.from(bytes).toString('utf8')) as RemoteBlockJson);
}

/**
 * The fork's cache: `kept` when it is this fork's (the store of the chain a reset replaces, still
 * open: an in-memory one holds all it has), else the data dir's, in memory, or the cache dir's.
 */
function openStore(db: Database, identity: ForkIdentity, settings: ForkSettings, log: (message: string) => void, kept?: ForkStore): Promise<ForkStore> {
  if (kept !== undefined && sameFork(kept.identity, identity)) return Promise.resolve(kept);
  if (isOnDisk(db)) return forkStoreInDataDir(db.root, identity);
  if (!settings.cache) return forkStoreInMemory(identity);
  return forkStoreInDir(settings.cacheDir ?? defaultForkCacheDir(), identity, log);
}

/** The forked chain's genesis spec: every fork up to the fork block's active from block 0, the chain id the node answers. */
function forkSpec(identity: ForkIdentity, json: RemoteBlockJson, chainSettings: ForkChainSettings): ForkGenesis {
  const newest = DEV_HARDFORKS[DEV_HARDFORKS.length - 1];
  const inferred = forkOfHeader(json as unknown as Record<string, unknown>, newest);
  // Prague, Osaka and the BPO forks share their header fields: a public chain's schedule tells which.
  const scheduled = inferred === newest ? requestsEraFork(identity.chainId, identity.number, BigInt(json.timestamp)) : undefined;
  const hardfork = chainSettings.hardfork ?? scheduled ?? inferred;
  const { config } = chainConfigUpTo(chainSettings.chainId ?? identity.chainId, hardfork);
  return {
    config,
    nonce: '0x0',
    timestamp: json.timestamp,
    extraData: '0x',
    gasLimit: json.gasLimit as `0x${string}`,
    difficulty: (json.difficulty as `0x${string}` | undefined) ?? "0x0",
    mixHash: `0x${'00'.repeat(32)}`,
    coinbase: `0x${'00'.repeat(20)}`,
    alloc: {},
    evmNodeFork: { number: identity.number.toString(), hash: identity.hash, remoteChainId: identity.chainId.toString() },
  };
}

const sameFork = (a: ForkIdentity, b: ForkIdentity) => a.chainId === b.chainId && a.number === b.number && a.hash === b.hash;

async function resume(db: Database, spec: ForkGenesis, identity: ForkIdentity, settings: ForkSettings, remote: RemoteRpc | undefined, log: (message: string) => void, kept?: ForkStore): Promise<Chain> {
  const store = await openStore(db, identity, settings, log, kept);
  try {
    const json = await storedJson(store);
    if (json === undefined) throw new RemoteError(`the data dir's fork of block ${identity.number} lacks the fork block itself`);
    const chain = await assemble(db, spec, identity, json, store, remote);
    await chain.fork?.forkState.settleMode();
    return chain;
  } catch (error) {
    if (store !== kept) await store.close();
    throw error;
  }
}

/** The forked chain over `store`, written to `db` (with `replace`) once `first` has read what it reads. */
async function assemble(
  db: Database,
  spec: ForkGenesis,
  identity: ForkIdentity,
  json: RemoteBlockJson,
  store: ForkStore,
  remote: RemoteRpc | undefined,
  replace?: BatchOp[],
  first?: (forkState: ForkState, common: Common) => Promise<void>,
): Promise<Chain> {
  const commons = new ForkCommons(commonFromGenesis(spec));
  const commonForJson = (block: RemoteBlockJson) => commons.ofFork(forkOfHeader(block as unknown as Record<string, unknown>, commons.base.hardfork()));
  const base = blockFromRemote(json, commonForJson, json.uncleHeaders);
  const forkState = new ForkState({ number: base.header.number, hash: base.hash(), stateRoot: base.header.stateRoot }, store, remote, keccak);
  // A remote block decodes under the fork its own header's fields name: the forked chain knows the remote's forks no further back than the fork block's.
  const history = new ForkHistory(store, remote, base, commonForJson, (header) => commons.ofHeaderFields(header.fields), (block: Block) =>
    forkState.addRemoteBlock({ number: block.header.number, hash: block.hash(), stateRoot: block.header.stateRoot }),
  );
  const blocks = new ForkedBlockStore(db, (header) => commons.at(header), history);
  const state = await StateStore.open(db.trie, db.preimages, commons.at(base.header), db.damage, forkState);
  const fork: ChainFork = {
    info: { url: remote?.shownUrl, number: identity.number, hash: hexToBytes(identity.hash as `0x${string}`), remoteChainId: identity.chainId, cache: store.where, offline: remote === undefined },
    base,
    baseTotalDifficulty: reportedTotalDifficulty(base),
    blocks,
    state,
    forkState,
    history,
    store,
    remote,
  };
  await first?.(forkState, commons.at(base.header));
  return Chain.openFork(db, spec, commons, fork, replace);
}

/** The dev accounts' balances on top of the fork block's state (their proofs fetched already), one state edit. */
async function fundDevAccounts(chain: Chain, addresses: Address[], balance: bigint): Promise<void> {
  if (addresses.length === 0) return;
  const state = chain.state.writer;
  await state.setStateRoot(chain.headStateRoot());
  const found = await Promise.all(addresses.map((address) => state.getAccount(address)));
  for (const [i, address] of addresses.entries()) {
    const account = found[i] ?? new Account();
    account.balance = balance;
    await state.putAccount(address, account);
  }
  await chain.commitHeadState(await state.getStateRoot());
}

