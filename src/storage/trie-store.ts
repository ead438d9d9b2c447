import type { BatchDBOp, DB, EncodingOpts } from '@ethereumjs/util';
import { bytesToHex, equalsBytes, KECCAK256_RLP } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { CACHE_LIMITS } from '../caches.js';
import { nativeCrypto } from '../crypto/native.js';
import type { DamageLog } from './damage.js';
import type { BatchOp, Section } from './database.js';
import { NodeCache } from './node-cache.js';

const keccak = nativeCrypto.keccak256 ?? keccak256;
/** How @ethereumjs/statemanager keys contract code: "c" ‖ its hash. */
const CODE_KEY_PREFIX = 0x63;

const EMPTY_ROOT = bytesToHex(KECCAK256_RLP).slice(2);

/**
 * A node's database key from the trie's hex string: Node's decoder, as @ethereumjs's hexToBytes
 * checks the string with a regular expression first — at a block's dozens of nodes, 6 % of an
 * empty block's time.
 */
const keyBytes = (key: string): Uint8Array => Buffer.from(key, 'hex');

/**
 * Where a trie node or code the store does not hold comes from: a forked chain's remote
 * (fork/fork-state.ts). `byValue`: the read is a view's, which reads a remote slot as its value
 * rather than fetch the storage nodes on its way (see {@link TrieStore.valueReader}).
 */
export interface NodeSource {
  node(key: string, byValue?: boolean): Promise<Uint8Array | undefined>;
}

/**
 * The trie's key-value store: trie nodes and code by content hash in LevelDB.
 *
 * Writes are held in memory until the chain takes them with {@link drain} and writes them in the
 * same atomic batch as the block that produced them, so the database never holds the state of a
 * block it does not hold. Deletes are ignored: nodes are content-addressed and old state roots
 * must stay readable for historical queries.
 *
 * What is read from disk is checked against the key it was stored under (a node's or code's
 * hash): one that does not hash to it is damage (storage/damage.ts), never served. The check is a
 * keccak-256 of the node (1-3 µs) on a read that missed every cache.
 */
export class TrieStore implements DB<string, Uint8Array> {
  private pending = new Map<string, Uint8Array>();
  /** Writes handed to a batch that may not have landed yet; still served to readers until it has. */
  private inFlight = new Map<string, Uint8Array>();
  /** Buffered writes read again before they landed (see {@link landed}). */
  private reread = new Set<string>();
  /** Nodes recently read or landed, for every state view alike (they open and close with each block). */
  private readonly recent = new NodeCache(CACHE_LIMITS.trieNodeProbationBytes, CACHE_LIMITS.trieNodeProtectedBytes);

  constructor(
    private readonly section: Section,
    private readonly damage: DamageLog,
    private readonly source?: NodeSource,
  ) {}

  get(key: string, _opts?: EncodingOpts): Promise<Uint8Array | undefined> {
    return this.read(key, false);
  }

  /**
   * The same store for read-only views: what it lacks is asked of the source as a view's read, so
   * a fork's views learn a missing storage node is the remote's instead of fetching it. Its own
   * object, not a flag in an async context: views of many requests read at once.
   */
  valueReader(): DB<string, Uint8Array> {
    return new ValueReader(this);
  }

  /** `byValue`: a view's read (see {@link valueReader}). */
  async read(key: string, byValue: boolean): Promise<Uint8Array | undefined> {
    // The empty trie has no node to store; the trie still asks for it (an account without storage).
    if (key === EMPTY_ROOT) return undefined;
    const written = this.pending.get(key) ?? this.inFlight.get(key);
    if (written !== undefined) {
      this.reread.add(key);
      return written;
    }
    const recent = this.recent.get(key);
    if (recent !== undefined) return recent;
    // Synchronous: ~3x cheaper than an asynchronous read when LevelDB or the page cache has the node.
    const bytes = keyBytes(key);
    const stored = this.damage.read(() => nodeName(bytes), () => this.section.getSync(bytes)) ?? undefined;
    if (stored !== undefined && !hashesTo(stored, bytes)) {
      throw this.damage.found(nodeName(bytes), `does not hash to the key it was stored under (its keccak-256 is ${bytesToHex(keccak(stored))})`);
    }
    const found = stored ?? (await this.source?.node(key, byValue));
    if (found !== undefined) this.recent.read(key, found);
    return found;
  }

  async put(key: string, value: Uint8Array, _opts?: EncodingOpts): Promise<void> {
    this.pending.set(key, value);
  }

  async del(_key: string, _opts?: EncodingOpts): Promise<void> {}

  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.pending.set(op.key, op.value);
  }

  shallowCopy(): DB<string, Uint8Array> {
    return this;
  }

  async open(): Promise<void> {}

  /**
   * Lets the nodes not yet asked for twice take up to `bytes` until the returned function is called
   * (then back to their usual bound, what passes it dropped).
   */
  widenCache(bytes: number): () => void {
    return this.recent.widenProbation(bytes);
  }

  /** Takes the buffered writes as batch operations; call {@link landed} once the batch is written. */
  drain(): BatchOp[] {
    for (const [key, value] of this.pending) this.inFlight.set(key, value);
    const ops: BatchOp[] = [];
    for (const [key, value] of this.pending) {
      ops.push({ type: 'put', sublevel: this.section, key: keyBytes(key), value });
    }
    this.pending = new Map();
    return ops;
  }

  /**
   * The batch landed: its writes join the recent nodes, but for those read again before it did. A
   * node is read to be replaced (a trie walk on its way to write below it), so most of those are
   * already gone from the latest state — the upper nodes of a trie a run of blocks writes into,
   * rewritten block after block — and would only crowd out what the state still holds, such as the
   * leaves the next blocks come back to. The few read for another reason are read from disk again.
   */
  landed(): void {
    for (const [key, value] of this.inFlight) if (!this.reread.has(key)) this.recent.landed(key, value);
    this.inFlight = new Map();
    this.reread = new Set();
  }

  /** Forgets writes that will never be committed (a block that failed to build, import or land). */
  discard(): void {
    this.pending = new Map();
    this.inFlight = new Map();
    this.reread = new Set();
  }
}

/** Whether `value` is what `key` names: a trie node stored under its hash, or code under "c" ‖ its hash. */
function hashesTo(value: Uint8Array, key: Uint8Array): boolean {
  const hash = key.length === 33 && key[0] === CODE_KEY_PREFIX ? key.subarray(1) : key;
  return equalsBytes(keccak(value), hash);
}

const nodeName = (key: Uint8Array): string =>
  key.length === 33 && key[0] === CODE_KEY_PREFIX ? `the contract code ${bytesToHex(key.subarray(1))}` : `the state trie node ${bytesToHex(key)}`;

/** The trie store as read-only views read it ({@link TrieStore.valueReader}); views never write. */
class ValueReader implements DB<string, Uint8Array> {
  constructor(private readonly store: TrieStore) {}

  get(key: string, _opts?: EncodingOpts): Promise<Uint8Array | undefined> {
    return this.store.read(key, true);
  }

  put(key: string, value: Uint8Array, opts?: EncodingOpts): Promise<void> {
    return this.store.put(key, value, opts);
  }

  async del(_key: string, _opts?: EncodingOpts): Promise<void> {}

  batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    return this.store.batch(ops);
  }

  shallowCopy(): DB<string, Uint8Array> {
    return this;
  }

  async open(): Promise<void> {}
}

/**
 * A trie store for state that must never land (the pending block's): reads fall through to the
 * chain's store, writes stay in this object's memory and go when it is dropped.
 */
export class OverlayTrieStore implements DB<string, Uint8Array> {
  private readonly written = new Map<string, Uint8Array>();

  constructor(private readonly base: DB<string, Uint8Array>) {}

  async get(key: string, opts?: EncodingOpts): Promise<Uint8Array | undefined> {
    return this.written.get(key) ?? this.base.get(key, opts);
  }

  async put(key: string, value: Uint8Array, _opts?: EncodingOpts): Promise<void> {
    this.written.set(key, value);
  }

  async del(_key: string, _opts?: EncodingOpts): Promise<void> {}

  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.written.set(op.key, op.value);
  }

  shallowCopy(): DB<string, Uint8Array> {
    return this;
  }

  async open(): Promise<void> {}
}
