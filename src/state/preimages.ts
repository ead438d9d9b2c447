import { unprefixedHexToBytes } from '@ethereumjs/util';
import type { BatchOp, Section } from '../storage/database.js';

/** Keys recorded lately, not written again while remembered (a block's sender, coinbase and system contracts recur). */
const RECENT_KEYS = 16_384;

/**
 * The keys the state trie hashes, by their hashes, as geth's preimage store keeps them:
 * keccak256(address) → address and keccak256(slot) → slot, for every account and storage slot
 * the writer flushes to the trie (genesis, blocks, imports, state edits). The trie is keyed by the
 * hashes, so without them the node could not list its accounts (anvil_dumpState). Like trie nodes
 * they are content-addressed and never deleted; they land in the batch of the block or edit that
 * wrote their keys ({@link drain}), so a recorded state never lacks them.
 */
export class PreimageStore {
  /** key hex (unprefixed) → the key, since the last drain */
  private pending = new Map<string, Uint8Array>();
  private inFlight: string[] = [];
  private recent = new Set<string>();

  constructor(
    private readonly section: Section,
    private readonly keccak: (data: Uint8Array) => Uint8Array,
  ) {}

  /** A key (an address or a slot, unprefixed hex) the writer wrote to the trie. */
  record(keyHex: string): void {
    if (this.recent.has(keyHex) || this.pending.has(keyHex)) return;
    this.pending.set(keyHex, unprefixedHexToBytes(keyHex));
  }

  /** The key whose hash is `hash`, if one was recorded. */
  get(hash: Uint8Array): Uint8Array | undefined {
    return this.section.getSync(hash);
  }

  /** Takes the recorded keys as batch operations; call {@link landed} once the batch is written. */
  drain(): BatchOp[] {
    const ops: BatchOp[] = [];
    for (const [keyHex, key] of this.pending) {
      ops.push({ type: 'put', sublevel: this.section, key: this.keccak(key), value: key });
      this.inFlight.push(keyHex);
    }
    this.pending = new Map();
    return ops;
  }

  landed(): void {
    if (this.recent.size + this.inFlight.length > RECENT_KEYS) this.recent = new Set();
    for (const keyHex of this.inFlight) this.recent.add(keyHex);
    this.inFlight = [];
  }

  /** Forgets keys of writes that will never land. */
  discard(): void {
    this.pending = new Map();
    this.inFlight = [];
  }
}
