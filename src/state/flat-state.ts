import type { AccountFields, Common, StateManagerInterface } from '@ethereumjs/common';
import { OriginalStorageCache } from '@ethereumjs/statemanager';
import { Account, bytesToUnprefixedHex, equalsBytes, EthereumJSErrorWithoutCode, KECCAK256_RLP, unpadBytes, type Address } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import type { StateSnapshot } from './snapshot.js';

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
 * snapshot (memory, falling back to the trie once), writes go to checkpointed layers in memory and
 * are thrown away with the run. Calls (eth_call, eth_estimateGas) run on it instead of on a trie
 * view, which would walk the trie for every account and slot again on each call: a view's caches
 * drop what was read inside a checkpoint when it is reverted, and calls always end reverted.
 *
 * It answers as @ethereumjs's MerkleStateManager (with caches) answers, read for read — the
 * ordering of its storage and code lookups, its errors, `unpadBytes` on write, accounts handed
 * out as fresh copies, the original-storage cache cleared when the outermost checkpoint closes —
 * but computes no state root: runs that need one (receipts before Byzantium, block building) stay
 * on the trie. `test/unit/flat-state.spec.ts` runs the same transactions on both and compares.
 */
export class FlatState implements StateManagerInterface {
  readonly originalStorageCache: OriginalStorageCache;
  private layers: Layer[] = [{}];

  constructor(
    private snapshot: StateSnapshot,
    readonly common?: Common,
  ) {
    this.originalStorageCache = new OriginalStorageCache(this.getStorage.bind(this));
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
    const committed = await this.snapshot.account(address);
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
    const committed = await this.snapshot.account(address);
    if (committed === undefined || !equalsBytes(committed.storageRoot, account.storageRoot)) return EMPTY;
    return this.snapshot.storage(address, committed.storageRoot, key);
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

  async getStateRoot(): Promise<Uint8Array> {
    throw new Error('FlatState computes no state root; run on the trie state for that');
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
    return this.snapshot.account(address);
  }
}

/** A copy as MerkleStateManager hands out (it stores accounts serialized): the four consensus fields. */
function copy(account: Account): Account {
  return new Account(account.nonce, account.balance, account.storageRoot, account.codeHash);
}
