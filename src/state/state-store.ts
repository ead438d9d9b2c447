import type { Common } from '@ethereumjs/common';
import { createMPT, type MerklePatriciaTrie } from '@ethereumjs/mpt';
import { isLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Caches, CacheType, MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex, equalsBytes, ValueEncoding, type Address, type DB } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { CACHE_LIMITS } from '../caches.js';
import type { DamageLog } from '../storage/damage.js';
import type { BatchOp, Section } from '../storage/database.js';
import { OverlayTrieStore, TrieStore } from '../storage/trie-store.js';
import { StateFacts, StateSnapshot, type AccountChanges, type ReadWatch } from './snapshot.js';
import { forkAware } from './fork-aware-state.js';
import type { ForkState } from '../fork/fork-state.js';
import type { ListedKeys, RunRequest } from './run-request.js';
import { PreimageStore } from './preimages.js';
import { cachedState, Writer, type StateWrapper } from './writer.js';

/** Transactions of a block whose first reads are fetched ahead at most: a flooded pool does not send the remote thousands of proofs at once. */
const READY_TXS = 256;

/** What a block reads first besides its transactions (StateStore.readyForBlock). */
export interface BlockReads {
  coinbase: Address;
  /** its transactions' senders */
  senders: readonly Address[];
  /**
   * The block, where the system calls at its start are to be read ahead too: a replay's. A block
   * built on a fork has read them as the fork started, or written them since; read here, they made
   * the first send after a start 60 ms slower (118–132 against 62–81 ms at 25 ms a request).
   */
  system?: { common: Common; number: bigint; timestamp: bigint };
}

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
  /** Blocks landed since the writer's caches were last cleared. */
  private blocksSinceClear = 0;
  /** The last of a run of blocks built on the writer's trie that has not landed yet (see {@link built}). */
  private unlanded?: StateSnapshot;

  private readonly writing: Writer;
  /** The state blocks are built on, advanced block by block. */
  readonly writer: MerkleStateManager;

  private constructor(
    private readonly store: TrieStore,
    trie: MerklePatriciaTrie,
    common: Common,
    private readonly wrap: StateWrapper,
    /** the keys the writer wrote, by their hashes (anvil_dumpState lists accounts through them) */
    readonly preimages: PreimageStore,
    /** the trie's own nodes (a fork's remote never asked), for walking what the node wrote */
    readonly section: Section,
    /** what the views are wrapped in: a fork's read slots by value */
    private readonly wrapView: StateWrapper = wrap,
    /** the trie views copy: a fork's reads the store as views do ({@link TrieStore.valueReader}) */
    private readonly viewTrie: MerklePatriciaTrie = trie,
    private readonly fork?: ForkState,
  ) {
    this.writing = new Writer(trie, common, (root) => this.snapshot(root), (keyHex) => preimages.record(keyHex), wrap);
    this.writer = this.writing.state;
  }

  /**
   * The state in `section`, the preimages of its keys in `preimages`; what its reads find damaged
   * goes to `damage`. A forked chain's (`fork`) reads what it lacks from the remote.
   */
  static async open(section: Section, preimages: Section, common: Common, damage: DamageLog, fork?: ForkState): Promise<StateStore> {
    const store = new TrieStore(section, damage, fork);
    // No per-trie node cache: every view copies the writer's settings, and a 50,000-entry LRU is
    // allocated whole for each; the store's shared cache of recent nodes serves them all.
    const trieOver = (db: DB<string, Uint8Array>) => createMPT({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common, cacheSize: 0 });
    const trie = await trieOver(store);
    const keccak = common.customCrypto.keccak256 ?? keccak256;
    const preimageStore = new PreimageStore(preimages, keccak);
    if (fork === undefined) return new StateStore(store, trie, common, (state) => state, preimageStore, section);
    const wrapView: StateWrapper = (state) => forkAware(state, fork, fork.base, true);
    return new StateStore(store, trie, common, (state) => forkAware(state, fork), preimageStore, section, wrapView, await trieOver(store.valueReader()), fork);
  }

  /** Whether the state at `root` is a forked chain's remote block's, read lazily from the remote. */
  remote(root: Uint8Array): boolean {
    return this.fork?.isRemote(root) ?? false;
  }

  /** Whether the state is a forked chain's, read lazily from its remote. */
  get forked(): boolean {
    return this.fork !== undefined;
  }

  /**
   * Fetches at once what a call from `from` to `to` on the state at `root` reads first, where the
   * state is a fork's: both accounts, the code of `to` and what its access list names, one round
   * trip to the remote where the call's own reads take three and more in a row.
   */
  async readyForCall(root: Uint8Array, from: Address, to: Address | undefined, accessList: readonly ListedKeys[] = []): Promise<void> {
    const { fork } = this;
    if (fork === undefined) return;
    const block = fork.blockOf(root);
    await Promise.all([fork.account(block, from.bytes), to === undefined ? undefined : fork.callTarget(block, to.bytes), accessList.length === 0 ? undefined : fork.listed(block, accessList)]);
  }

  /**
   * Where the state at `root` is a fork's, what hears of the reads of one run on it (`request`) and
   * fetches the rest of what the run reads at once once they wait for the remote too often
   * (fork/run-access-list.ts); `proofs` for a block being built. Undefined otherwise.
   */
  watchFor(root: Uint8Array, request: RunRequest, proofs: boolean): ReadWatch | undefined {
    const { fork } = this;
    return fork === undefined ? undefined : fork.accessLists.watchFor(fork.blockOf(root), request, proofs);
  }

  /**
   * Fetches at once, where the state at `root` is a fork's, what a block about to run `txs` on it
   * reads first: its coinbase, the transactions' senders, their recipients with their code, what
   * their access lists name, and if asked the system contracts its start calls. Run one after
   * another, each would be fetched as it was met.
   */
  async readyForBlock(root: Uint8Array, txs: readonly TypedTransaction[], block: BlockReads): Promise<void> {
    const { fork } = this;
    if (fork === undefined) return;
    const at = fork.blockOf(root);
    txs = txs.slice(0, READY_TXS);
    const lists = txs.flatMap((tx) => (isLegacyTx(tx) ? [] : tx.accessList));
    const reads: (() => Promise<unknown> | undefined)[] = [
      () => (block.system === undefined ? undefined : fork.readSystem(at, block.system.common, block.system)),
      () => fork.account(at, block.coinbase.bytes),
      ...block.senders.slice(0, READY_TXS).map((sender) => () => fork.account(at, sender.bytes)),
      ...txs.map((tx) => () => (tx.to === undefined ? undefined : fork.callTarget(at, tx.to.bytes))),
      () => fork.listed(at, lists, true),
    ];
    await Promise.all(
      reads.map(async (read) => {
        try {
          await read();
        } catch {
          // Left to the block's own read (offline: what the cache lacks; a remote that failed).
        }
      }),
    );
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
    if (this.snapshots.size > CACHE_LIMITS.stateSnapshots + 1) this.snapshots.delete(this.snapshots.keys().next().value as string);
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
    const state = cachedState(trie, common, this.wrap);
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
    return this.wrapView(new MerkleStateManager({ trie: this.viewTrie.shallowCopy(false, { cacheSize: 0 }), common: this.writer.common, caches }));
  }

  /** A fresh view over a pinned state's memory (its writes, if any, stay there too). */
  private async viewOf(pinned: MerkleStateManager, stateRoot: Uint8Array): Promise<MerkleStateManager> {
    const view = pinned.shallowCopy(false);
    await view.setStateRoot(stateRoot);
    return view;
  }

  drain(): BatchOp[] {
    return [...this.store.drain(), ...this.preimages.drain()];
  }

  /** Gives the trie node cache room for a long run of blocks until the returned function is called (see CACHE_LIMITS.trieNodeProbationBytesWhileMining). */
  widenNodeCache(): () => void {
    return this.store.widenCache(CACHE_LIMITS.trieNodeProbationBytesWhileMining);
  }

  /**
   * The writer's trie holds the state at `root`, of a block built on the state of `parent` that has
   * not landed yet (one of a run landing in one batch): its snapshot, derived from `parent`'s with
   * the accounts the block changed, so the run's next block reads memory as a block on the head
   * does. Landing the run keeps the last one as the head's ({@link landed}); discarding it drops them all.
   */
  built(parent: StateSnapshot, root: Uint8Array): StateSnapshot {
    const snapshot = this.derive(parent, root, this.writing.take());
    this.writing.rebase(snapshot);
    this.unlanded = snapshot;
    return snapshot;
  }

  /** What {@link drain} took was written ahead of an edit that has not landed (Chain.spillState). */
  spilled(): void {
    this.store.landed();
    this.preimages.landed();
  }

  /**
   * The block whose state is `root` has landed on the block whose state is `parentRoot`, or a run
   * of blocks {@link built} one by one, the last with state `root`: the writer's recorded changes
   * are exactly what the block changed (the run's were taken block by block), so its snapshot
   * derives from its parent's.
   * The writer's caches hold nothing the trie does not by then, so past their bound (`blocks` is
   * how many blocks landed) they start afresh; they cannot be an LRU, which could drop a write
   * before the block is committed.
   */
  landed(parentRoot: Uint8Array | undefined, root: Uint8Array, blocks = 1): void {
    this.store.landed();
    this.preimages.landed();
    this.blocksSinceClear += blocks;
    if (this.blocksSinceClear >= CACHE_LIMITS.writerBlocks || this.writing.cachedAccounts() > CACHE_LIMITS.writerAccounts) {
      this.writer.clearCaches();
      this.blocksSinceClear = 0;
    }
    const run = this.unlanded;
    this.unlanded = undefined;
    const changes = this.writing.take();
    const head =
      parentRoot === undefined ? new StateSnapshot(root, () => this.at(root), this.facts) : this.derive(run ?? this.snapshot(parentRoot), root, changes);
    this.keep(bytesToHex(root), head);
    this.writing.rebase(head);
  }

  /** The snapshot of `root`, the state after a block that made `changes` to `parent`'s (`parent`'s own when the root is the same). */
  private derive(parent: StateSnapshot, root: Uint8Array, changes: AccountChanges): StateSnapshot {
    if (equalsBytes(parent.root, root)) return parent;
    return parent.child(root, () => this.at(root), changes);
  }

  discard(): void {
    this.store.discard();
    this.preimages.discard();
    this.unlanded = undefined;
    this.writing.take();
  }
}
