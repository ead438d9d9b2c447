import type { Common } from '@ethereumjs/common';
import { createMPT } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { RLP } from '@ethereumjs/rlp';
import {
  bytesToHex,
  createAccountFromRLP,
  createAddressFromString,
  equalsBytes,
  EthereumJSErrorWithoutCode,
  KECCAK256_RLP,
  unpadBytes,
  ValueEncoding,
  type Account,
  type Address,
} from '@ethereumjs/util';
import type { BatchOp, Section } from '../storage/database.js';
import { OverlayTrieStore, TrieStore } from '../storage/trie-store.js';
import { StateFacts, StateSnapshot, type AccountChanges } from './snapshot.js';

/** Hears of each landed block's state: the root it grew from, its root, the accounts it changed. */
export type StateListener = (parentRoot: Uint8Array, root: Uint8Array, changes: AccountChanges) => void;

const READERS_KEPT = 16;
/** Snapshots kept besides the head's: the states of recent blocks calls may still be running on. */
const SNAPSHOTS_KEPT = 8;
/** Pending-block states kept readable: the newest few, so a request that resolved an older preview still reads it. */
const PINNED_KEPT = 4;

/**
 * World state in a Merkle-Patricia trie over LevelDB. One writer state advances block by block;
 * read-only views open any committed state root, so every block stays queryable.
 *
 * Beside the trie, flat snapshots ({@link snapshot}) answer account, storage and code reads from
 * memory. The head's is derived from its parent's with the accounts the block changed, taken from
 * the writer's caches as they flush to the trie, so it stays warm across blocks.
 */
export class StateStore {
  private readonly readers = new Map<string, MerkleStateManager>();
  /** States that live only in memory (see {@link ephemeral}), readable at their root while pinned. */
  private readonly pinned = new Map<string, MerkleStateManager>();
  private readonly facts = new StateFacts();
  /** state root → snapshot, least recently used first */
  private readonly snapshots = new Map<string, StateSnapshot>();
  /** Accounts the writer flushed to its trie since the last block landed: what the next block changes. */
  private changes = new Map<string, Account | null>();
  /** The snapshot of the state the writer's trie held before those changes. */
  private base?: StateSnapshot;
  private readonly listeners: StateListener[] = [];
  private readonly resetListeners: (() => void)[] = [];

  private constructor(
    private readonly store: TrieStore,
    readonly writer: MerkleStateManager,
  ) {}

  static async open(section: Section, common: Common): Promise<StateStore> {
    const store = new TrieStore(section);
    const trie = await createMPT({
      db: store,
      useKeyHashing: true,
      valueEncoding: ValueEncoding.Bytes,
      common,
      // No per-trie node cache: every view copies the writer's settings, and a 50,000-entry LRU is
      // allocated whole for each; the store's shared cache of recent nodes serves them all.
      cacheSize: 0,
    });
    const caches = new Caches();
    const writer = storageThroughCache(new MerkleStateManager({ trie, common, caches }), caches);
    const state = new StateStore(store, writer);
    state.recordChanges(caches);
    state.followStateRoot();
    return state;
  }

  /**
   * Every account the writer's cache flushes to the trie passes through here: the one place the
   * writer's state changes reach the trie (storage writes land on their account as a new storage
   * root). What flushes unchanged is dropped: the system calls of EIP-7002 and 7251 put their
   * contracts' accounts back as they found them, and delete the system address, which does not
   * exist, every block — three trie writes (~100 µs each) that change nothing. Unchanged means equal
   * to what the snapshot of the writer's base state holds in memory, and not flushed since.
   */
  private recordChanges(caches: Caches): void {
    const accounts = caches.account!;
    const flush = accounts.flush.bind(accounts);
    accounts.flush = () => {
      const items = flush().filter(([key, element]) => this.changes.has(key) || !unchanged(this.base?.peek(key), element.accountRLP));
      for (const [key, element] of items) this.changes.set(key, element.accountRLP === undefined ? null : createAccountFromRLP(element.accountRLP));
      return items;
    };
  }

  /** The writer's trie moves to another root (a failed block undone, an import's parent): its base follows. */
  private followStateRoot(): void {
    const setStateRoot = this.writer.setStateRoot.bind(this.writer);
    this.writer.setStateRoot = async (root: Uint8Array, clearCache?: boolean) => {
      await setStateRoot(root, clearCache);
      this.changes = new Map();
      this.base = this.snapshot(root);
    };
  }

  /**
   * The flat snapshot of the state at `root` (see {@link StateSnapshot}): the head's, warm across
   * blocks, or one of a few recent ones, which read the trie once and then memory.
   */
  snapshot(root: Uint8Array): StateSnapshot {
    const key = bytesToHex(root);
    let snapshot = this.snapshots.get(key);
    if (snapshot === undefined) {
      snapshot = new StateSnapshot(root, () => this.at(root), this.facts);
    }
    this.keep(key, snapshot);
    return snapshot;
  }

  private keep(key: string, snapshot: StateSnapshot): void {
    this.snapshots.delete(key);
    this.snapshots.set(key, snapshot);
    if (this.snapshots.size > SNAPSHOTS_KEPT + 1) this.snapshots.delete(this.snapshots.keys().next().value as string);
  }

  /**
   * Forgets every snapshot and the changes recorded since the last block: call it whenever the
   * writer's state moves other than by a landed block (the head rewound, an account edited in
   * place), since snapshots follow the writer only block by block. Trie views and content-addressed
   * facts (storage by storage root, code by hash) cannot go stale and stay.
   */
  onHeadReset(): void {
    this.snapshots.clear();
    this.changes = new Map();
    this.base = undefined;
    for (const listener of this.resetListeners) listener();
  }

  /** A read-only view of the state at `stateRoot`. Never checkpoint or write through it. */
  async at(stateRoot: Uint8Array): Promise<MerkleStateManager> {
    const key = bytesToHex(stateRoot);
    const pinned = this.pinned.get(key);
    if (pinned !== undefined) return this.viewOf(pinned, stateRoot);
    const cached = this.readers.get(key);
    if (cached !== undefined) {
      this.readers.delete(key);
      this.readers.set(key, cached);
      return cached;
    }
    const view = this.fork();
    await view.setStateRoot(stateRoot);
    if (this.readers.size >= READERS_KEPT) this.readers.delete(this.readers.keys().next().value as string);
    this.readers.set(key, view);
    return view;
  }

  /** A private state for one execution (a call, an estimate) that it may mutate and throw away. */
  async scratch(stateRoot: Uint8Array): Promise<MerkleStateManager> {
    const pinned = this.pinned.get(bytesToHex(stateRoot));
    if (pinned !== undefined) return this.viewOf(pinned, stateRoot);
    const state = this.fork();
    await state.setStateRoot(stateRoot);
    return state;
  }

  /**
   * A private state on `stateRoot` whose trie writes stay in memory, never in the database: for the
   * pending block, whose state must be readable (see {@link pin}) but never land.
   */
  async ephemeral(stateRoot: Uint8Array): Promise<MerkleStateManager> {
    const common = this.writer.common;
    const trie = await createMPT({ db: new OverlayTrieStore(this.store), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common });
    const caches = new Caches();
    const state = storageThroughCache(new MerkleStateManager({ trie, common, caches }), caches);
    await state.setStateRoot(stateRoot);
    return state;
  }

  /** Makes an {@link ephemeral} state readable by {@link at} and {@link scratch} at `stateRoot` (the newest few stay). */
  pin(stateRoot: Uint8Array, state: MerkleStateManager): void {
    const key = bytesToHex(stateRoot);
    this.pinned.delete(key);
    this.pinned.set(key, state);
    if (this.pinned.size > PINNED_KEPT) this.pinned.delete(this.pinned.keys().next().value as string);
  }

  /** A fresh view over a pinned state's memory (its writes, if any, stay there too). */
  private async viewOf(pinned: MerkleStateManager, stateRoot: Uint8Array): Promise<MerkleStateManager> {
    const view = pinned.shallowCopy(false);
    await view.setStateRoot(stateRoot);
    return view;
  }

  private fork(): MerkleStateManager {
    return this.writer.shallowCopy(false);
  }

  drain(): BatchOp[] {
    return this.store.drain();
  }

  /**
   * The block whose state is `root` has landed on the block whose state is `parentRoot`: the
   * writer's recorded changes are exactly what it changed, so its snapshot derives from the parent's.
   */
  landed(parentRoot: Uint8Array | undefined, root: Uint8Array): void {
    this.store.landed();
    const changes = this.changes;
    this.changes = new Map();
    // A block that changed nothing has its parent's state, and its snapshot.
    if (parentRoot !== undefined && equalsBytes(parentRoot, root)) {
      this.base = this.snapshot(root);
      return;
    }
    const open = () => this.at(root);
    const child = parentRoot === undefined ? new StateSnapshot(root, open, this.facts) : this.snapshot(parentRoot).child(root, open, changes);
    this.keep(bytesToHex(root), child);
    this.base = child;
    if (parentRoot !== undefined) for (const listener of this.listeners) listener(parentRoot, root, changes);
  }

  /** Tells `listener` of each block's state changes as the block lands (call workers carry their snapshots forward). */
  onLanded(listener: StateListener): void {
    this.listeners.push(listener);
  }

  /** Tells `listener` of each {@link onHeadReset}, so what keeps snapshots of its own drops them too. */
  onReset(listener: () => void): void {
    this.resetListeners.push(listener);
  }

  discard(): void {
    this.store.discard();
    this.changes = new Map();
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

/** Whether an account as flushed (RLP, or undefined for none) is what a snapshot knows it was (undefined: not known). */
function unchanged(known: Account | null | undefined, flushed: Uint8Array | undefined): boolean {
  if (known === undefined) return false;
  if (known === null) return flushed === undefined;
  return flushed !== undefined && equalsBytes(known.serialize(), flushed);
}
