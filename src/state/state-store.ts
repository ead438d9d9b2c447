import type { Common } from '@ethereumjs/common';
import { createMPT } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex, ValueEncoding } from '@ethereumjs/util';
import type { BatchOp, Section } from '../storage/database.js';
import { OverlayTrieStore, TrieStore } from '../storage/trie-store.js';

const READERS_KEPT = 16;
/** Pending-block states kept readable: the newest few, so a request that resolved an older preview still reads it. */
const PINNED_KEPT = 4;

/**
 * World state in a Merkle-Patricia trie over LevelDB. One writer state advances block by block;
 * read-only views open any committed state root, so every block stays queryable.
 */
export class StateStore {
  private readonly readers = new Map<string, MerkleStateManager>();
  /** States that live only in memory (see {@link ephemeral}), readable at their root while pinned. */
  private readonly pinned = new Map<string, MerkleStateManager>();

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
    const writer = new MerkleStateManager({ trie, common, caches: new Caches() });
    return new StateStore(store, writer);
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
    const state = new MerkleStateManager({ trie, common, caches: new Caches() });
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

  landed(): void {
    this.store.landed();
  }

  discard(): void {
    this.store.discard();
  }
}
