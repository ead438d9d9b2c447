import type { Common } from '@ethereumjs/common';
import { createMPT } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex, ValueEncoding } from '@ethereumjs/util';
import type { BatchOp, Section } from '../storage/database.js';
import { TrieStore } from '../storage/trie-store.js';

const READERS_KEPT = 16;

/**
 * World state in a Merkle-Patricia trie over LevelDB. One writer state advances block by block;
 * read-only views open any committed state root, so every block stays queryable.
 */
export class StateStore {
  private readonly readers = new Map<string, MerkleStateManager>();

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
      cacheSize: 50_000,
    });
    const writer = new MerkleStateManager({ trie, common, caches: new Caches() });
    return new StateStore(store, writer);
  }

  /** A read-only view of the state at `stateRoot`. Never checkpoint or write through it. */
  async at(stateRoot: Uint8Array): Promise<MerkleStateManager> {
    const key = bytesToHex(stateRoot);
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
    const state = this.fork();
    await state.setStateRoot(stateRoot);
    return state;
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
