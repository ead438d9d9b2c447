import type { BatchDBOp, DB, EncodingOpts } from '@ethereumjs/util';
import { hexToBytes } from '@ethereumjs/util';
import type { BatchOp, Section } from './database.js';

/**
 * The trie's key-value store: trie nodes and code by content hash in LevelDB.
 *
 * Writes are held in memory until the chain takes them with {@link drain} and writes them in the
 * same atomic batch as the block that produced them, so the database never holds the state of a
 * block it does not hold. Deletes are ignored: nodes are content-addressed and old state roots
 * must stay readable for historical queries.
 */
export class TrieStore implements DB<string, Uint8Array> {
  private pending = new Map<string, Uint8Array>();
  /** Writes handed to a batch that may not have landed yet; still served to readers until it has. */
  private inFlight = new Map<string, Uint8Array>();

  constructor(private readonly section: Section) {}

  async get(key: string, _opts?: EncodingOpts): Promise<Uint8Array | undefined> {
    const buffered = this.pending.get(key) ?? this.inFlight.get(key);
    if (buffered !== undefined) return buffered;
    return (await this.section.get(hexToBytes(`0x${key}`))) ?? undefined;
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

  /** Takes the buffered writes as batch operations; call {@link landed} once the batch is written. */
  drain(): BatchOp[] {
    for (const [key, value] of this.pending) this.inFlight.set(key, value);
    const ops: BatchOp[] = [];
    for (const [key, value] of this.pending) {
      ops.push({ type: 'put', sublevel: this.section as never, key: hexToBytes(`0x${key}`), value });
    }
    this.pending = new Map();
    return ops;
  }

  landed(): void {
    this.inFlight = new Map();
  }

  /** Forgets writes that will never be committed (a block that failed to build or import). */
  discard(): void {
    this.pending = new Map();
  }
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
