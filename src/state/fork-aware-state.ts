import { OriginalStorageCache, type MerkleStateManager } from '@ethereumjs/statemanager';
import type { Address } from '@ethereumjs/util';
import type { ForkState, RemoteBlock } from '../fork/fork-state.js';

/**
 * `state`, reading a forked chain: before it touches an account or a slot in its trie, the fork
 * brings the nodes on their path (once, then they are in the store). Writes say what they touch
 * too, so the trie can update a path it holds. The remote block the reads fetch at follows the
 * state root the state is set to: a remote block's own, else the fork block's (local states only
 * differ from it in what the node wrote). Copies read the same way.
 */
export function forkAware(state: MerkleStateManager, fork: ForkState, at: RemoteBlock = fork.base): MerkleStateManager {
  let block = at;
  const { getAccount, putAccount, deleteAccount, getStorage, putStorage, setStateRoot, shallowCopy } = state;
  state.setStateRoot = async (root: Uint8Array, clearCache?: boolean) => {
    block = fork.blockOf(root);
    await setStateRoot.call(state, root, clearCache);
  };
  state.getAccount = async (address: Address) => {
    await fork.account(block, address.bytes);
    return getAccount.call(state, address);
  };
  state.putAccount = async (address, account) => {
    await fork.account(block, address.bytes);
    return putAccount.call(state, address, account);
  };
  state.deleteAccount = async (address) => {
    await fork.account(block, address.bytes);
    return deleteAccount.call(state, address);
  };
  state.getStorage = async (address, key) => {
    await fork.slot(block, address.bytes, key);
    return getStorage.call(state, address, key);
  };
  state.putStorage = async (address, key, value) => {
    await fork.slot(block, address.bytes, key);
    return putStorage.call(state, address, key, value);
  };
  state.shallowCopy = (downlevelCaches?: boolean) => forkAware(shallowCopy.call(state, downlevelCaches), fork, block);
  // The EVM reads a slot's value before the transaction through this cache (SSTORE's gas): it must fetch too.
  (state as { originalStorageCache: OriginalStorageCache }).originalStorageCache = new OriginalStorageCache((address, key) => state.getStorage(address, key));
  return state;
}
