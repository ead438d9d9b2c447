// Every in-memory cache of the node and its bound, in one place: what the node holds beyond its
// live state (the chain head, the pool, installed filters) is at most what these allow, however
// long the chain grows. Bounds in entries hold small objects of a fixed size; caches of objects
// whose size varies are bounded in bytes.

export const CACHE_LIMITS = {
  /**
   * Decoded blocks by hash (chain/block-store.ts): at most this many, and this many bytes of their
   * RLP encoding (a decoded block takes ~5x that: every header and transaction carries its own copies).
   */
  blocks: 128,
  blockBytes: 2 * 1024 * 1024,
  /**
   * Answers kept for reuse, per method (rpc/answer-cache.ts): blocks (formatted and serialised, the
   * newest asked for first: the head is asked for over and over), proofs by state root, address and
   * keys, and the pool's last content.
   */
  answers: { eth_getBlockByHash: 4, eth_getBlockByNumber: 4, eth_getProof: 64, txpool_content: 1, txpool_inspect: 1 },
  /** Logs-bloom bits of recent emitters and topics (chain/bloom.ts), for receipts' blooms. */
  bloomValues: 4096,
  /**
   * Trie nodes and code shared by every state view (storage/node-cache.ts), in bytes: those on
   * probation (landed with a block, or read from disk once) and those asked for again while there.
   * Most nodes a block writes are read once more, by the next block replacing them, and probation
   * is where they pass through. Under one bound of 16 MB for all, the cache held ~14 MB of them after
   * a peerbench run, and the node's resident memory there was 168–170 MiB; with these, 151–158.
   */
  trieNodeProbationBytes: 4 * 1024 * 1024,
  trieNodeProtectedBytes: 12 * 1024 * 1024,
  /**
   * What probation may hold while anvil_mine lands a long run of empty blocks, in bytes: each block
   * writes a leaf into two rings of 8,191 slots (EIP-2935, EIP-4788) and the next lap reads it again
   * 8,191 blocks on, to replace it — a few MB of live nodes among ~25 MB written in between.
   */
  trieNodeProbationBytesWhileMining: 32 * 1024 * 1024,
  /** Read-only state views by state root (state/state-store.ts), each with its own account and storage caches. */
  stateViews: 16,
  /** Accounts a read-only state view keeps decoded (state/state-store.ts), least recently used dropped first. */
  stateViewAccounts: 2_000,
  /** Flat state snapshots kept besides the head's (state/state-store.ts): recent states calls may still run on. */
  stateSnapshots: 8,
  /**
   * A flat snapshot is chained to its parent's (state/snapshot.ts) at most this deep; the next one
   * flattens the chain's accounts into one map, carrying at most `snapshotCarriedAccounts` of them,
   * the most recently changed or read first (~530 bytes each, decoded). At 200,000 the carried
   * accounts followed the chain: every account a block had touched (13 MB of live heap after 20,000
   * blocks that touched 50,000 accounts, and more the longer the chain).
   */
  snapshotDepth: 32,
  snapshotCarriedAccounts: 10_000,
  /** Storage tries whose slots flat snapshots remember, and contracts' code, each whole (state/snapshot.ts); past that the memory starts over. */
  snapshotStorageRoots: 20_000,
  snapshotCodes: 10_000,
  /** Pending-block states kept readable (state/state-store.ts). */
  pinnedStates: 4,
  /**
   * The writer state (the one that builds blocks) keeps what blocks touched decoded, for the next
   * ones: once a block has landed (everything in its caches is in the trie by then) they are
   * cleared when they hold more accounts than this, or every `writerBlocks` blocks (storage slots
   * have no count of their own; what a block can touch is bounded by its gas).
   */
  writerAccounts: 20_000,
  writerBlocks: 256,
  /**
   * Fork caches on disk (fork/fork-store.ts), in bytes, all forks of the per-user cache dir
   * together: past it the least recently used forks' caches are removed when a fork opens.
   */
  forkCacheBytes: 2 * 1024 * 1024 * 1024,
  /** Accounts and slots a fork has checked are in its cache, kept in memory to skip the cache lookup (fork/fork-state.ts). */
  forkResolvedKeys: 200_000,
  /**
   * Kinds of call VM whose idle VMs are kept (state/vm-pool.ts: one kind per fork over a flat state,
   * or per block and state root before Byzantium), and idle VMs per kind.
   */
  callVmKinds: 4,
  callVmsPerKind: 16,
  /** Call block contexts (state/execution.ts): a block's header re-made for priced and unpriced calls. */
  callContexts: 8,
  /**
   * Replays kept for later traces in the same block (tracing/replay.ts), each a VM on a private
   * state that holds what the block's transactions before the traced one wrote.
   */
  tracePositions: 2,
  /** LevelDB's own block cache (storage/database.ts), in bytes. */
  levelBlockCacheBytes: 8 * 1024 * 1024,
  /** LevelDB's write buffer (storage/database.ts), in bytes. */
  levelWriteBufferBytes: 4 * 1024 * 1024,
  /**
   * Files LevelDB keeps open (storage/database.ts): 10 of its own and 64 table files of ~2 MB, its least.
   * It maps every table it opens into memory, and what reads touched stays resident until the table is
   * closed: with its default (1,000) the node's resident memory followed the database, 604 MiB after
   * 20,000 blocks (485 MB of tables, 417 MiB of them mapped); at 64 tables, 233–242 MiB. The price is
   * paid by reads spread over more tables than that: on that chain, proofs of random existing token
   * holders ~25 % slower (1,104–1,590 against 1,495–1,906 a second with every table open), proofs of
   * absent keys and every other read measured within noise. 128 tables measured as 64 there.
   */
  levelOpenFiles: 74,
} as const;

/**
 * A least-recently-used cache bounded in entries, or in a weight per entry (its bytes) and in
 * entries. A hit moves the entry to the young end: a Map keeps insertion order, so re-inserting it
 * is the whole bookkeeping.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Infinity,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` unless its weight alone passes the bound; evicts the oldest entries past either bound. */
  set(key: K, value: V, weight = 0): void {
    this.delete(key);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    while (this.entries.size > this.maxEntries || this.weight > this.maxWeight) {
      this.delete(this.entries.keys().next().value as K);
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * `make`, remembered per object: for what is derived from an immutable object (a pooled transaction's
 * formatted form), kept while the object lives and made once.
 */
export function perObject<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
}
