import type { AccountFields, Common, StateManagerInterface } from '@ethereumjs/common';
import { OriginalStorageCache, type MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToUnprefixedHex, equalsBytes, EthereumJSErrorWithoutCode, KECCAK256_RLP, unpadBytes, unprefixedHexToBytes } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { sameAccount, type ReadWatch, type StateSnapshot } from './snapshot.js';

const EMPTY = new Uint8Array(0);

/** What one checkpoint level wrote; maps are made on first write (most levels write nothing). */
interface Layer {
  /** null: deleted */
  accounts?: Map<string, Account | null>;
  /** address → slot → value (leading zeros stripped, as stored) */
  storage?: Map<string, Map<string, Uint8Array>>;
  /** addresses whose storage was cleared at this level: what lies below reads as empty */
  cleared?: Set<string>;
  /** null: the account and its code were deleted */
  code?: Map<string, Uint8Array | null>;
}

/**
 * A state manager for running transactions over a {@link StateSnapshot}: reads come from the
 * snapshot (memory, falling back to the trie once), writes go to checkpointed layers in memory.
 * Calls (eth_call, eth_estimateGas) run on it and throw their writes away; they would otherwise
 * walk the trie for every account and slot again on each call (a trie view's caches drop what was
 * read inside a checkpoint when it is reverted, and calls always end reverted). Blocks are built on
 * it too: given the writer's trie state, its state root is that of the writer once the layers'
 * writes are written into it — one trie update per changed account and slot, per block.
 *
 * It answers as @ethereumjs's MerkleStateManager (with caches) answers, read for read — the
 * ordering of its storage and code lookups, its errors, `unpadBytes` on write, accounts handed
 * out as fresh copies, the original-storage cache cleared when the outermost checkpoint closes —
 * except an account's storage root, which it leaves as the snapshot has it until the trie computes
 * the new one (the EVM reads it only to refuse a CREATE onto an account with storage, EIP-7610, and
 * an account given storage here has code or a nonce, which refuse it already). Runs whose receipts
 * need the state root after each transaction (before Byzantium) stay on the trie.
 * `test/unit/flat-state.spec.ts` runs the same transactions on both and compares;
 * `test/unit/writer-state.spec.ts` re-runs built blocks on a stock MerkleStateManager.
 */
export class FlatState implements StateManagerInterface {
  readonly originalStorageCache: OriginalStorageCache;
  private layers: Layer[] = [{}];
  /** Hears of the snapshot reads that wait for a fork's remote, for the run now on this state ({@link watchReads}). */
  private watch?: ReadWatch;

  constructor(
    private snapshot: StateSnapshot,
    readonly common?: Common,
    /** the writer's trie state, at the snapshot's root: what getStateRoot writes the layers into */
    private readonly trie?: MerkleStateManager,
  ) {
    this.originalStorageCache = new OriginalStorageCache(this.getStorage.bind(this));
  }

  /** Drops every layer and its writes, and moves to `snapshot` (a block is built on it afresh). */
  reset(snapshot: StateSnapshot): void {
    this.layers = [{}];
    this.snapshot = snapshot;
    this.originalStorageCache.clear();
  }

  /** From now on `watch` (none: undefined) hears of the reads that wait for a fork's remote: the run's that is now on this state. */
  watchReads(watch: ReadWatch | undefined): void {
    this.watch = watch;
  }

  /** Moves an idle state (no open checkpoint, nothing written) to another snapshot. */
  use(snapshot: StateSnapshot): void {
    if (this.layers.length !== 1 || Object.keys(this.layers[0]).length > 0) throw new Error('FlatState.use: the state has open checkpoints or writes');
    this.snapshot = snapshot;
    this.originalStorageCache.clear();
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const account = await this.currentAccount(address, bytesToUnprefixedHex(address.bytes));
    return account === undefined ? undefined : copy(account);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    const top = this.top();
    (top.accounts ??= new Map()).set(bytesToUnprefixedHex(address.bytes), account === undefined ? null : copy(account));
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = bytesToUnprefixedHex(address.bytes);
    const top = this.top();
    (top.accounts ??= new Map()).set(key, null);
    (top.code ??= new Map()).set(key, null);
    (top.cleared ??= new Set()).add(key);
    top.storage?.delete(key);
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account();
    account.nonce = fields.nonce ?? account.nonce;
    account.balance = fields.balance ?? account.balance;
    account.storageRoot = fields.storageRoot ?? account.storageRoot;
    account.codeHash = fields.codeHash ?? account.codeHash;
    account.codeSize = fields.codeSize ?? account.codeSize;
    await this.putAccount(address, account);
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const codeHash = (this.common?.customCrypto.keccak256 ?? keccak256)(value);
    (this.top().code ??= new Map()).set(bytesToUnprefixedHex(address.bytes), value);
    if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account());
    await this.modifyAccountFields(address, { codeHash });
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = bytesToUnprefixedHex(address.bytes);
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const code = this.layers[i].code?.get(key);
      if (code !== undefined) return code ?? EMPTY;
    }
    const account = await this.currentAccount(address, key);
    if (account === undefined || !account.isContract()) return EMPTY;
    // Code only changes through putCode (which writes a layer), so this is the committed account's code.
    const committed = await this.snapshot.account(address, this.watch);
    if (committed === undefined || !equalsBytes(committed.codeHash, account.codeHash)) return EMPTY;
    return this.snapshot.code(address, committed.codeHash);
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    const addressKey = bytesToUnprefixedHex(address.bytes);
    const slotKey = bytesToUnprefixedHex(key);
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const layer = this.layers[i];
      const value = layer.storage?.get(addressKey)?.get(slotKey);
      if (value !== undefined) return value;
      if (layer.cleared?.has(addressKey) === true) return EMPTY;
    }
    const account = await this.currentAccount(address, addressKey);
    if (account === undefined) return EMPTY;
    // The EVM moves an account's storage root only by clearing the storage (handled above); an
    // account created here has the empty root and no committed storage.
    const committed = await this.snapshot.account(address, this.watch);
    if (committed === undefined || !equalsBytes(committed.storageRoot, account.storageRoot)) return EMPTY;
    return this.snapshot.storage(address, committed.storageRoot, key, this.watch);
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    if (value.length > 32) throw EthereumJSErrorWithoutCode('Storage value cannot be longer than 32 bytes');
    if ((await this.getAccount(address)) === undefined) throw EthereumJSErrorWithoutCode('putStorage() called on non-existing account');
    const addressKey = bytesToUnprefixedHex(address.bytes);
    const storage = (this.top().storage ??= new Map());
    let slots = storage.get(addressKey);
    if (slots === undefined) {
      slots = new Map();
      storage.set(addressKey, slots);
    }
    slots.set(bytesToUnprefixedHex(key), unpadBytes(value));
  }

  async clearStorage(address: Address): Promise<void> {
    const key = bytesToUnprefixedHex(address.bytes);
    const account = (await this.getAccount(address)) ?? new Account();
    const top = this.top();
    (top.cleared ??= new Set()).add(key);
    top.storage?.delete(key);
    account.storageRoot = KECCAK256_RLP;
    await this.putAccount(address, account);
  }

  async checkpoint(): Promise<void> {
    this.layers.push({});
  }

  async commit(): Promise<void> {
    const top = this.layers.pop()!;
    const below = this.layers[this.layers.length - 1];
    if (top.cleared !== undefined) {
      for (const key of top.cleared) {
        (below.cleared ??= new Set()).add(key);
        below.storage?.delete(key);
      }
    }
    if (top.storage !== undefined) {
      const storage = (below.storage ??= new Map());
      for (const [key, slots] of top.storage) {
        const target = storage.get(key);
        if (target === undefined) storage.set(key, slots);
        else for (const [slot, value] of slots) target.set(slot, value);
      }
    }
    if (top.accounts !== undefined) {
      const accounts = (below.accounts ??= new Map());
      for (const [key, account] of top.accounts) accounts.set(key, account);
    }
    if (top.code !== undefined) {
      const code = (below.code ??= new Map());
      for (const [key, value] of top.code) code.set(key, value);
    }
    if (this.layers.length === 1) this.originalStorageCache.clear();
  }

  async revert(): Promise<void> {
    this.layers.pop();
    if (this.layers.length === 1) this.originalStorageCache.clear();
  }

  /** The writer's state root once every layer's writes are written into it (see the constructor). */
  async getStateRoot(): Promise<Uint8Array> {
    if (this.trie === undefined) throw new Error('FlatState computes no state root; run on the trie state for that');
    await this.writeTo(this.trie);
    return this.trie.getStateRoot();
  }

  /**
   * Writes the layers' net effect into `trie`, in the order MerkleStateManager itself would have
   * taken them: deletions, cleared storage, accounts, code, then slots (its flush then computes
   * each storage root and puts the account with it). What the snapshot shows the trie holds already
   * is left out, as it changes nothing: the system calls of EIP-7002 and 7251, where they run (their
   * queues busy, or a tracer listening: patches/@ethereumjs+vm skips them otherwise), put their
   * contracts' accounts back as they found them, zero slots already zero, and delete the system
   * address, which does not exist.
   */
  private async writeTo(trie: MerkleStateManager): Promise<void> {
    const { accounts, cleared, code, storage } = this.net();
    const deleted = (key: string) => accounts?.get(key) === null;
    for (const [key, account] of accounts ?? []) if (account === null && this.snapshot.peek(key) !== null) await trie.deleteAccount(addressOf(key));
    for (const key of cleared ?? []) if (!deleted(key)) await trie.clearStorage(addressOf(key));
    for (const [key, account] of accounts ?? []) if (account !== null && !sameAccount(this.snapshot.peek(key), account)) await trie.putAccount(addressOf(key), account);
    for (const [key, value] of code ?? []) if (value !== null && !deleted(key)) await trie.putCode(addressOf(key), value);
    for (const [key, slots] of storage ?? []) {
      if (deleted(key)) continue;
      const address = addressOf(key);
      // A zero written to storage that is empty (cleared here, or empty in the snapshot) deletes nothing.
      const empty = cleared?.has(key) === true || hasEmptyStorage(this.snapshot.peek(key));
      for (const [slot, value] of slots) if (value.length > 0 || !empty) await trie.putStorage(address, unprefixedHexToBytes(slot), value);
    }
  }

  /** Every layer's writes as one layer, as committing them all would leave them (the layers stay). */
  private net(): Layer {
    const out: Layer = {};
    for (const layer of this.layers) {
      for (const key of layer.cleared ?? []) {
        (out.cleared ??= new Set()).add(key);
        out.storage?.delete(key);
      }
      for (const [key, slots] of layer.storage ?? []) {
        const storage = (out.storage ??= new Map());
        const target = storage.get(key) ?? new Map<string, Uint8Array>();
        for (const [slot, value] of slots) target.set(slot, value);
        storage.set(key, target);
      }
      for (const [key, account] of layer.accounts ?? []) (out.accounts ??= new Map()).set(key, account);
      for (const [key, value] of layer.code ?? []) (out.code ??= new Map()).set(key, value);
    }
    return out;
  }

  async setStateRoot(): Promise<void> {
    throw new Error('FlatState follows a snapshot (use()), not a state root');
  }

  async hasStateRoot(): Promise<boolean> {
    throw new Error('FlatState computes no state root');
  }

  clearCaches(): void {}

  shallowCopy(): FlatState {
    return new FlatState(this.snapshot, this.common);
  }

  private top(): Layer {
    return this.layers[this.layers.length - 1];
  }

  /** The account as the layers and the snapshot have it, not copied: only for reading. */
  private async currentAccount(address: Address, key: string): Promise<Account | undefined> {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const account = this.layers[i].accounts?.get(key);
      if (account !== undefined) return account ?? undefined;
    }
    return this.snapshot.account(address, this.watch);
  }
}

const addressOf = (key: string) => new Address(unprefixedHexToBytes(key));

/** Whether `known` (a snapshot's account) is known to exist with no storage. */
function hasEmptyStorage(known: Account | null | undefined): boolean {
  return known != null && equalsBytes(known.storageRoot, KECCAK256_RLP);
}

/** A copy as MerkleStateManager hands out (it stores accounts serialized): the four consensus fields. */
function copy(account: Account): Account {
  return new Account(account.nonce, account.balance, account.storageRoot, account.codeHash);
}
