// The writer state: a MerkleStateManager with caches, as @ethereumjs builds blocks on it, with the
// wrappers below around its caches. Blocks built on it are the blocks the stock state manager
// builds (test/unit/writer-state.spec.ts runs them again on one, every root checked).
import { RLP } from '@ethereumjs/rlp';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import {
  createAccountFromRLP,
  createAddressFromString,
  equalsBytes,
  EthereumJSErrorWithoutCode,
  KECCAK256_RLP,
  unpadBytes,
  type Account,
  type Address,
} from '@ethereumjs/util';
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import type { Common } from '@ethereumjs/common';
import { isDeletedMark } from './fork-aware-state.js';
import { sameAccount, type StateSnapshot } from './snapshot.js';

/** What the state store does to each state manager it makes (a forked chain's reads bring what they need first). */
export type StateWrapper = (state: MerkleStateManager) => MerkleStateManager;
const asIs: StateWrapper = (state) => state;

/** A state manager whose storage writes wait in its cache for the flush (see {@link storageThroughCache}). */
export function cachedState(trie: MerklePatriciaTrie, common: Common, wrap: StateWrapper = asIs): MerkleStateManager {
  const caches = new Caches();
  return wrap(storageThroughCache(new MerkleStateManager({ trie, common, caches }), caches));
}

/**
 * The writer: a {@link cachedState} that also records every account it flushes to its trie since
 * the last {@link take}, and knows the snapshot of the state its trie held before them.
 */
export class Writer {
  readonly state: MerkleStateManager;
  private changes = new Map<string, Account | null>();
  private base?: StateSnapshot;
  private readonly accounts: NonNullable<Caches['account']>;

  /**
   * `snapshotOf` answers the snapshot of a state root, for the base after setStateRoot; `written` hears
   * of every address and slot (unprefixed hex) flushed to the trie, whose preimages are kept.
   */
  constructor(trie: MerklePatriciaTrie, common: Common, snapshotOf: (root: Uint8Array) => StateSnapshot, written: (keyHex: string) => void, wrap: StateWrapper = asIs) {
    const caches = new Caches();
    this.accounts = caches.account!;
    this.state = wrap(storageThroughCache(new MerkleStateManager({ trie, common, caches }), caches));
    this.recordChanges(caches);
    const storage = caches.storage!;
    const flushStorage = storage.flush.bind(storage);
    storage.flush = () => {
      const items = flushStorage();
      for (const [, keyHex] of items) written(keyHex);
      return items;
    };
    const accounts = caches.account!;
    const flushAccounts = accounts.flush.bind(accounts);
    accounts.flush = () => {
      const items = flushAccounts();
      for (const [addressHex] of items) written(addressHex);
      return items;
    };
    const setStateRoot = this.state.setStateRoot.bind(this.state);
    // The trie moved to another root (a failed block undone, an import's parent): the base follows.
    this.state.setStateRoot = async (root: Uint8Array, clearCache?: boolean) => {
      await setStateRoot(root, clearCache);
      this.rebase(snapshotOf(root));
    };
  }

  /** How many accounts the writer's cache holds decoded. */
  cachedAccounts(): number {
    return this.accounts.size();
  }

  /** The accounts flushed since the last take (null: deleted), which then start over. */
  take(): Map<string, Account | null> {
    const changes = this.changes;
    this.changes = new Map();
    return changes;
  }

  /** The trie now holds the state of `base` (a block landed, or nothing is known: undefined). */
  rebase(base: StateSnapshot | undefined): void {
    this.changes = new Map();
    this.base = base;
  }

  /**
   * Every account the writer's cache flushes to the trie passes through here: the one place the
   * writer's state changes reach the trie (storage writes land on their account as a new storage
   * root). What flushes unchanged is dropped: the system calls of EIP-7002 and 7251 put their
   * contracts' accounts back as they found them, and delete the system address, which does not
   * exist, every block — three trie writes (~100 µs each) that change nothing. Unchanged means equal
   * to what the base's snapshot holds in memory, and not flushed since.
   */
  private recordChanges(caches: Caches): void {
    const accounts = caches.account!;
    const flush = accounts.flush.bind(accounts);
    accounts.flush = () =>
      flush().filter(([key, element]) => {
        const decoded = element.accountRLP === undefined ? null : createAccountFromRLP(element.accountRLP);
        // A fork read as plain values keeps a deleted account as a mark: to the snapshots it is none.
        const account = decoded !== null && isDeletedMark(decoded) ? null : decoded;
        if (!this.changes.has(key) && unchanged(this.base?.peek(key), account)) return false;
        this.changes.set(key, account);
        return true;
      });
  }
}

/**
 * Storage writes that stay in the cache until the state root is asked for, as MerkleStateManager
 * means them to: its putStorage reads `cache.put(…) ?? writeTrie(…)`, and put answers undefined, so
 * every SSTORE also rewrote the account's storage trie at once (a trie walk and the hashes of its
 * path; an exception thrown and caught for an account without storage) before flush() wrote the
 * same slot again. Here the cache alone takes the write (its checkpoints revert it) and flush()
 * writes each slot's last value once, so state roots are the same. What changes is the account's
 * storage root between writes and the next flush — the library updates it only on flush then — and
 * the EVM reads a storage root only to refuse a CREATE onto an account with storage (EIP-7610),
 * where an account written this block has code or a nonce that refuse it already.
 *
 * The flush also skips zeroing slots of an account whose storage is empty, which change nothing:
 * the EIP-7002/7251 system calls zero four slots of their empty queues every block, and the trie
 * throws (and the library catches) on each, then rewrites the unchanged account.
 */
function storageThroughCache(state: MerkleStateManager, caches: Caches): MerkleStateManager {
  const storage = caches.storage!;
  const accounts = caches.account!;
  const flush = storage.flush.bind(storage);
  const storageIsEmpty = (addressHex: string): boolean => {
    const cached = accounts.get(createAddressFromString(`0x${addressHex}`));
    if (cached === undefined) return false;
    return cached.accountRLP === undefined || equalsBytes(createAccountFromRLP(cached.accountRLP).storageRoot, KECCAK256_RLP);
  };
  storage.flush = () => flush().filter(([addressHex, , value]) => !((value === undefined || unpadBytes(RLP.decode(value) as Uint8Array).length === 0) && storageIsEmpty(addressHex)));
  state.putStorage = async (address: Address, key: Uint8Array, value: Uint8Array): Promise<void> => {
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    if (value.length > 32) throw EthereumJSErrorWithoutCode('Storage value cannot be longer than 32 bytes');
    if ((await state.getAccount(address)) === undefined) throw EthereumJSErrorWithoutCode('putStorage() called on non-existing account');
    storage.put(address, key, RLP.encode(unpadBytes(value)));
  };
  return state;
}

/** Whether an account as flushed (null: none) is what a snapshot knows it was (undefined: not known). */
function unchanged(known: Account | null | undefined, flushed: Account | null): boolean {
  if (known === undefined) return false;
  return known === null ? flushed === null : flushed !== null && sameAccount(known, flushed);
}
