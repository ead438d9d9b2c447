import { bytesToUnprefixedHex, equalsBytes, KECCAK256_RLP, type Account, type Address } from '@ethereumjs/util';
import { CACHE_LIMITS } from '../caches.js';

/**
 * Told when a read made for one run (a call, a transaction being mined) has to wait for a forked
 * chain's remote: what the run reads is then worth asking the remote about as a whole (fork/run-access-list.ts).
 */
export interface ReadWatch {
  waited(): void;
}

/** Waits for a fork's fetch where there is one (`fetching`), telling `watch` that its run's read waits. */
export async function waitedFor(fetching: Promise<void> | undefined, watch: ReadWatch | undefined): Promise<void> {
  if (fetching === undefined) return;
  watch?.waited();
  await fetching;
}

/**
 * Where a snapshot reads what it does not hold yet: a trie view at its root. A forked chain's view
 * tells `watch` of the reads it fetches.
 */
export interface StateReader {
  getAccount(address: Address, watch?: ReadWatch): Promise<Account | undefined>;
  getStorage(address: Address, key: Uint8Array, watch?: ReadWatch): Promise<Uint8Array>;
  getCode(address: Address): Promise<Uint8Array>;
}

/** Account changes of one block, by unprefixed address hex; null for an account the block deleted. */
export type AccountChanges = ReadonlyMap<string, Account | null>;

const { snapshotDepth: MAX_DEPTH, snapshotCarriedAccounts: MAX_CARRIED, snapshotStorageRoots: MAX_STORAGE_ROOTS, snapshotCodes: MAX_CODES } = CACHE_LIMITS;
const EMPTY = new Uint8Array(0);

/** Whether `known` (a snapshot's account: null none, undefined not known) is `account`, field for field. */
export function sameAccount(known: Account | null | undefined, account: Account): boolean {
  return (
    known != null &&
    known.nonce === account.nonce &&
    known.balance === account.balance &&
    equalsBytes(known.storageRoot, account.storageRoot) &&
    equalsBytes(known.codeHash, account.codeHash)
  );
}

/**
 * What never changes once a trie holds it, shared by every snapshot: a storage trie's slots (its
 * root names its contents) and code (its hash names it).
 */
export class StateFacts {
  private readonly slots = new Map<string, Map<string, Uint8Array>>();
  private readonly codes = new Map<string, Uint8Array>();

  slot(storageRoot: string, key: string): Uint8Array | undefined {
    return this.slots.get(storageRoot)?.get(key);
  }

  rememberSlot(storageRoot: string, key: string, value: Uint8Array): void {
    let slots = this.slots.get(storageRoot);
    if (slots === undefined) {
      if (this.slots.size >= MAX_STORAGE_ROOTS) this.slots.clear();
      slots = new Map();
      this.slots.set(storageRoot, slots);
    }
    slots.set(key, value);
  }

  code(codeHash: string): Uint8Array | undefined {
    return this.codes.get(codeHash);
  }

  rememberCode(codeHash: string, code: Uint8Array): void {
    if (this.codes.size >= MAX_CODES) this.codes.clear();
    this.codes.set(codeHash, code);
  }
}

/**
 * The committed state at one state root, read through to the trie once and then from memory: what
 * calls and admission read instead of walking the trie. The head's snapshot is derived from its
 * parent's with the block's account changes (see {@link child}), so what was read before the block
 * stays warm unless the block changed it. Accounts it hands out are shared: never mutate one.
 */
export class StateSnapshot {
  /** unprefixed address hex → account at this root (null: no account), read or changed here */
  private readonly accounts = new Map<string, Account | null>();
  private reader?: Promise<StateReader>;

  constructor(
    readonly root: Uint8Array,
    /** opens a read-only view at `root`, for what no snapshot has read yet */
    private readonly open: () => Promise<StateReader>,
    private readonly facts: StateFacts,
    private readonly parent?: StateSnapshot,
    private readonly depth = 0,
  ) {}

  /** The snapshot of `root`, the state after a block that made `changes` to this snapshot's state. */
  child(root: Uint8Array, open: () => Promise<StateReader>, changes: AccountChanges): StateSnapshot {
    if (this.depth + 1 < MAX_DEPTH) {
      const next = new StateSnapshot(root, open, this.facts, this, this.depth + 1);
      for (const [key, account] of changes) next.accounts.set(key, account);
      return next;
    }
    const next = new StateSnapshot(root, open, this.facts);
    for (const [key, account] of changes) next.accounts.set(key, account);
    // Newest first, so each address keeps its latest account and what the bound leaves out is what was touched longest ago.
    for (let s: StateSnapshot | undefined = this; s !== undefined && next.accounts.size < MAX_CARRIED; s = s.parent) {
      for (const [key, account] of s.accounts) {
        if (next.accounts.size >= MAX_CARRIED) break;
        if (!next.accounts.has(key)) next.accounts.set(key, account);
      }
    }
    return next;
  }

  /** The account at this root if a snapshot has it in memory (null: no account), else undefined. */
  peek(addressHex: string): Account | null | undefined {
    const own = this.accounts.get(addressHex);
    if (own !== undefined) return own;
    for (let s = this.parent; s !== undefined; s = s.parent) {
      const known = s.accounts.get(addressHex);
      if (known !== undefined) {
        // Read again soon, as a run's blocks read the same few accounts: next time from here.
        this.accounts.set(addressHex, known);
        return known;
      }
    }
    return undefined;
  }

  /** The account at this root; `watch` hears of a read that waits for a fork's remote. */
  async account(address: Address, watch?: ReadWatch): Promise<Account | undefined> {
    const key = bytesToUnprefixedHex(address.bytes);
    const known = this.peek(key);
    if (known !== undefined) return known ?? undefined;
    const account = await (await this.trie()).getAccount(address, watch);
    this.accounts.set(key, account ?? null);
    return account;
  }

  /** A slot of `address`'s storage at this root, whose storage root is `storageRoot`; `watch` as for {@link account}. */
  async storage(address: Address, storageRoot: Uint8Array, key: Uint8Array, watch?: ReadWatch): Promise<Uint8Array> {
    if (equalsBytes(storageRoot, KECCAK256_RLP)) return EMPTY;
    const rootKey = bytesToUnprefixedHex(storageRoot);
    const slotKey = bytesToUnprefixedHex(key);
    const known = this.facts.slot(rootKey, slotKey);
    if (known !== undefined) return known;
    const value = await (await this.trie()).getStorage(address, key, watch);
    this.facts.rememberSlot(rootKey, slotKey, value);
    return value;
  }

  /** The code of `address` at this root, whose code hash is `codeHash`. */
  async code(address: Address, codeHash: Uint8Array): Promise<Uint8Array> {
    const hashKey = bytesToUnprefixedHex(codeHash);
    const known = this.facts.code(hashKey);
    if (known !== undefined) return known;
    const code = await (await this.trie()).getCode(address);
    this.facts.rememberCode(hashKey, code);
    return code;
  }

  private trie(): Promise<StateReader> {
    this.reader ??= this.open().catch((error: unknown) => {
      this.reader = undefined;
      throw error;
    });
    return this.reader;
  }
}
