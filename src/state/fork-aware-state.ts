import { OriginalStorageCache, type MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, equalsBytes, KECCAK256_RLP, type Address } from '@ethereumjs/util';
import type { ForkState } from '../fork/fork-state.js';
import type { RemoteBlock } from '../fork/proof-records.js';
import type { RunRequest } from './run-request.js';
import { waitedFor, type ReadWatch } from './snapshot.js';

const EMPTY = new Uint8Array();
/**
 * What a fork read as plain values (fork/fork-values.ts) keeps in its tries for what it deleted:
 * a trie lacking a key reads the remote's value, so a deleted account or a zeroed slot must stay
 * in the trie. The slot's mark is a value no contract writes (keccak-256 of "evm-node:
 * zeroed" with its first byte 0xff); the account's, one whose code hash is that value.
 */
const DELETED = Uint8Array.from(Buffer.from('ff8d04962f6cc76ab37c97d7df2ed83fdde1b2b1ecd9b33247c26e635f706722', 'hex'));

/** A fork-aware state's run, where the library's reads name none: what hears of its reads, and how to make one. */
interface RunsWatched {
  watch?: ReadWatch;
  watchFor(request: RunRequest): ReadWatch | undefined;
}

const watched = new WeakMap<object, RunsWatched>();

/**
 * From now on the reads of `state`, a fork-aware state of its own (a replay's, a simulation's), are
 * watched for `request`, the run now on it (none: undefined): where it waits for the remote again
 * and again, the rest is fetched at once, by proofs (fork/run-access-list.ts). Nothing for a state
 * that reads no fork.
 */
export function watchRunOn(state: object, request: RunRequest | undefined): void {
  const runs = watched.get(state);
  if (runs !== undefined) runs.watch = request === undefined ? undefined : runs.watchFor(request);
}

/** Whether a trie's account is the mark of one a fork read as plain values deleted. */
export const isDeletedMark = (account: Account): boolean => equalsBytes(account.codeHash, DELETED);

/**
 * `state`, reading a forked chain: before it touches an account or a slot in its trie, the fork
 * brings the nodes on their path (once, then they are in the store). Writes say what they touch
 * too, so the trie can update a path it holds. The remote block the reads fetch at follows the
 * state root the state is set to: a remote block's own, else the fork block's (local states only
 * differ from it in what the node wrote). Copies read the same way. A `readOnly` state (a view:
 * calls, reads) reads a slot no write passed by as a plain value instead of its proof.
 *
 * A fork whose remote serves no proofs is read as plain values instead: the trie holds what the
 * node wrote (and marks for what it deleted), and what it lacks is the remote's value.
 *
 * Account and slot reads take a {@link ReadWatch} beside the library's arguments (a snapshot passes
 * its run's; else the one {@link watchRunOn} set): it hears of each read that waits for the remote.
 */
export function forkAware(state: MerkleStateManager, fork: ForkState, at: RemoteBlock = fork.base, readOnly = false): MerkleStateManager {
  let block = at;
  const runs: RunsWatched = { watchFor: (request) => fork.accessLists.watchFor(block, request, true) };
  watched.set(state, runs);
  const { getAccount, putAccount, deleteAccount, getStorage, putStorage, setStateRoot, shallowCopy } = state;
  const valueOfAccount = async (address: Address, watch: ReadWatch | undefined): Promise<Account | undefined> => {
    const local = await getAccount.call(state, address);
    if (local !== undefined) return isDeletedMark(local) ? undefined : local;
    await waitedFor(fork.account(block, address.bytes), watch);
    return fork.values!.accountOf(block, address.bytes);
  };
  state.setStateRoot = async (root: Uint8Array, clearCache?: boolean) => {
    block = fork.blockOf(root);
    await setStateRoot.call(state, root, clearCache);
  };
  const accountRead = async (address: Address, watch = runs.watch) => {
    if (fork.values === undefined) {
      await waitedFor(fork.account(block, address.bytes), watch);
      if (fork.values === undefined) return getAccount.call(state, address);
    }
    return valueOfAccount(address, watch);
  };
  state.getAccount = accountRead;
  state.putAccount = async (address, account) => {
    if (fork.values === undefined) await fork.account(block, address.bytes);
    return putAccount.call(state, address, account);
  };
  state.deleteAccount = async (address) => {
    if (fork.values === undefined) {
      await fork.account(block, address.bytes);
      if (fork.values === undefined) return deleteAccount.call(state, address);
    }
    return putAccount.call(state, address, new Account(0n, 0n, KECCAK256_RLP, DELETED));
  };
  state.getStorage = async (address: Address, key: Uint8Array, watch = runs.watch) => {
    if (fork.values === undefined) {
      if (readOnly) return fork.slotValue(block, address.bytes, key, () => getStorage.call(state, address, key), watch);
      await waitedFor(fork.slot(block, address.bytes, key), watch);
      if (fork.values === undefined) return getStorage.call(state, address, key);
    }
    const account = await accountRead(address, watch);
    if (account === undefined) return EMPTY;
    const local = await getStorage.call(state, address, key);
    if (local.length > 0) return equalsBytes(local, DELETED) ? EMPTY : local;
    // The empty trie: an account made here, or one without code on the remote, has no remote slots.
    if (equalsBytes(account.storageRoot, KECCAK256_RLP)) return EMPTY;
    await waitedFor(fork.slot(block, address.bytes, key), watch);
    return fork.values.slotOf(block, address.bytes, key);
  };
  state.putStorage = async (address, key, value) => {
    if (fork.values === undefined) {
      await fork.slot(block, address.bytes, key);
      if (fork.values === undefined) return putStorage.call(state, address, key, value);
    }
    return putStorage.call(state, address, key, value.some((byte) => byte !== 0) ? value : DELETED);
  };
  state.shallowCopy = (downlevelCaches?: boolean) => forkAware(shallowCopy.call(state, downlevelCaches), fork, block, readOnly);
  // The EVM reads a slot's value before the transaction through this cache (SSTORE's gas): it must fetch too.
  (state as { originalStorageCache: OriginalStorageCache }).originalStorageCache = new OriginalStorageCache((address, key) => state.getStorage(address, key));
  return state;
}
