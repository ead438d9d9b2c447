import type { Common } from '@ethereumjs/common';
import { createMPT, type MerklePatriciaTrie } from '@ethereumjs/mpt';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex, equalsBytes, ValueEncoding } from '@ethereumjs/util';
import type { BatchOp, Section } from '../storage/database.js';
import { OverlayTrieStore, TrieStore } from '../storage/trie-store.js';
import { StateFacts, StateSnapshot, type AccountChanges } from './snapshot.js';
import { cachedState, Writer } from './writer.js';

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
  private readonly listeners: StateListener[] = [];
  private readonly resetListeners: (() => void)[] = [];

  private readonly writing: Writer;
  /** The state blocks are built on, advanced block by block. */
  readonly writer: MerkleStateManager;

  private constructor(
    private readonly store: TrieStore,
    trie: MerklePatriciaTrie,
    common: Common,
  ) {
    this.writing = new Writer(trie, common, (root) => this.snapshot(root));
    this.writer = this.writing.state;
  }

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
    return new StateStore(store, trie, common);
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
    this.writing.rebase(undefined);
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
   * pending block, whose state must be readable (see {@link pin}) but never land, and for work that
   * commits or computes state roots it must not keep (replays for traces, simulated blocks).
   */
  async ephemeral(stateRoot: Uint8Array): Promise<MerkleStateManager> {
    const pinned = this.pinned.get(bytesToHex(stateRoot));
    if (pinned !== undefined) return this.viewOf(pinned, stateRoot);
    const common = this.writer.common;
    const trie = await createMPT({ db: new OverlayTrieStore(this.store), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common, cacheSize: 0 });
    const state = cachedState(trie, common);
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
    const changes = this.writing.take();
    // A block that changed nothing has its parent's state, and its snapshot.
    if (parentRoot !== undefined && equalsBytes(parentRoot, root)) {
      this.writing.rebase(this.snapshot(root));
      return;
    }
    const open = () => this.at(root);
    const child = parentRoot === undefined ? new StateSnapshot(root, open, this.facts) : this.snapshot(parentRoot).child(root, open, changes);
    this.keep(bytesToHex(root), child);
    this.writing.rebase(child);
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
    this.writing.take();
  }
}
