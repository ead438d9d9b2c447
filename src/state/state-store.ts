import type { Common } from '@ethereumjs/common';
import { createMPT, type MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, CacheType, MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex, ValueEncoding } from '@ethereumjs/util';
import { CACHE_LIMITS } from '../caches.js';
import type { BatchOp, Section } from '../storage/database.js';
import { OverlayTrieStore, TrieStore } from '../storage/trie-store.js';

/**
 * World state in a Merkle-Patricia trie over LevelDB. One writer state advances block by block;
 * read-only views open any committed state root, so every block stays queryable.
 */
export class StateStore {
  private readonly readers = new Map<string, MerkleStateManager>();
  /** States that live only in memory (see {@link ephemeral}), readable at their root while pinned. */
  private readonly pinned = new Map<string, MerkleStateManager>();
  /** Blocks landed since the writer's caches were last cleared. */
  private blocksSinceClear = 0;

  private constructor(
    private readonly store: TrieStore,
    private readonly trie: MerklePatriciaTrie,
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
    return new StateStore(store, trie, writer);
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
    const view = this.view();
    await view.setStateRoot(stateRoot);
    if (this.readers.size >= CACHE_LIMITS.stateViews) this.readers.delete(this.readers.keys().next().value as string);
    this.readers.set(key, view);
    return view;
  }

  /**
   * A private state for one execution (a call, an estimate) that it may mutate and throw away: its
   * writes stay in its caches (the writer's kind, which never drop an entry) until it reverts them.
   */
  async scratch(stateRoot: Uint8Array): Promise<MerkleStateManager> {
    const pinned = this.pinned.get(bytesToHex(stateRoot));
    if (pinned !== undefined) return this.viewOf(pinned, stateRoot);
    const state = this.writer.shallowCopy(false);
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
    if (this.pinned.size > CACHE_LIMITS.pinnedStates) this.pinned.delete(this.pinned.keys().next().value as string);
  }

  /**
   * A state that is only read: its account cache least-recently-used, so bounded (an LRU may drop
   * an entry at any time, which only a state that writes could not afford), and no storage or code
   * cache (the trie store's shared node cache serves them).
   */
  private view(): MerkleStateManager {
    const caches = new Caches({ account: { type: CacheType.LRU, size: CACHE_LIMITS.stateViewAccounts }, storage: { size: 0 }, code: { size: 0 } });
    return new MerkleStateManager({ trie: this.trie.shallowCopy(false, { cacheSize: 0 }), common: this.writer.common, caches });
  }

  /** A fresh view over a pinned state's memory (its writes, if any, stay there too). */
  private async viewOf(pinned: MerkleStateManager, stateRoot: Uint8Array): Promise<MerkleStateManager> {
    const view = pinned.shallowCopy(false);
    await view.setStateRoot(stateRoot);
    return view;
  }

  drain(): BatchOp[] {
    return this.store.drain();
  }

  /**
   * The block's state is in the database. The writer's caches hold nothing the trie does not
   * (the block is built and committed), so past their bound they start afresh; they cannot be an
   * LRU, which could drop a write before the block is committed.
   */
  landed(): void {
    this.store.landed();
    const accounts = (this.writer as unknown as { _caches?: Caches })._caches?.account?.size() ?? 0;
    if (++this.blocksSinceClear >= CACHE_LIMITS.writerBlocks || accounts > CACHE_LIMITS.writerAccounts) {
      this.writer.clearCaches();
      this.blocksSinceClear = 0;
    }
  }

  discard(): void {
    this.store.discard();
  }
}
