// anvil_setBalance, anvil_setNonce, anvil_setCode and anvil_setStorageAt (and their hardhat_ names):
// edits to the head's state without a block, as anvil and Hardhat make them. Reads at `latest` see
// them at once and the next block builds on them. Each edit lands at once — the trie nodes of the new
// state and the record "this block's state is now that root" in one LevelDB batch (Chain.commitHeadState)
// — so it survives a restart, and a crash never leaves a recorded root whose nodes are missing.
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, KECCAK256_NULL, KECCAK256_RLP, equalsBytes, setLengthLeft, type Address } from '@ethereumjs/util';
import type { Chain } from '../chain/chain.js';
import type { Miner } from '../producer/miner.js';
import type { TxPool } from '../txpool/pool.js';
import type { DumpedAccount } from '../dump/anvil-format.js';

/** Accounts of a loaded dump between flushes of the state's caches into its trie. */
const FLUSH_EVERY = 4_096;

export class StateEditor {
  constructor(
    private readonly chain: Chain,
    private readonly miner: Miner,
    private readonly pool: TxPool,
  ) {}

  setBalance(address: Address, balance: bigint): Promise<void> {
    return this.editAccount(address, (account) => {
      account.balance = balance;
    });
  }

  /** anvil_addBalance: the balance grows by `amount` (an account that does not exist is created with it). */
  addBalance(address: Address, amount: bigint): Promise<void> {
    return this.editAccount(address, (account) => {
      account.balance += amount;
    });
  }

  /** The pool re-reads the sender's nonce: transactions below it are dropped, a gap above it queues the rest. */
  async setNonce(address: Address, nonce: bigint): Promise<void> {
    await this.editAccount(address, (account) => {
      account.nonce = nonce;
    });
    await this.pool.revalidate();
  }

  setCode(address: Address, code: Uint8Array): Promise<void> {
    return this.edit(async (state) => {
      await state.putCode(address, code);
      await this.pruneIfEmpty(state, address);
    });
  }

  /** `value` is the slot's 32-byte word; an account that does not exist yet is created to hold it. */
  setStorage(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    return this.edit(async (state) => {
      if ((await state.getAccount(address)) === undefined) await state.putAccount(address, new Account());
      await state.putStorage(address, setLengthLeft(slot, 32), value);
    });
  }

  /**
   * Many accounts in one edit (anvil_loadState): `fill` hands each to `put`, which sets its nonce, balance and
   * code and writes its slots over what it held. They land together in one batch when `fill` resolves, or
   * not at all when it throws; the pool then re-reads the nonces.
   */
  async load<T>(fill: (put: (address: Address, account: DumpedAccount) => Promise<void>) => Promise<T>): Promise<T> {
    let answer: T | undefined;
    await this.edit(async (state) => {
      let since = 0;
      answer = await fill(async (address, { nonce, balance, code, storage }) => {
        const account = (await state.getAccount(address)) ?? new Account();
        account.nonce = nonce;
        account.balance = balance;
        await state.putAccount(address, account);
        if (code !== undefined && (code.length > 0 || !equalsBytes(account.codeHash, KECCAK256_NULL))) await state.putCode(address, code);
        for (const [slot, value] of storage) await state.putStorage(address, slot, value);
        await this.pruneIfEmpty(state, address);
        // Into the trie and the database now and then: the state's caches and the trie's buffer would otherwise hold a large dump whole.
        if (++since === FLUSH_EVERY) {
          since = 0;
          await state.flush();
          state.clearCaches();
          await this.chain.spillState();
        }
      });
    });
    await this.pool.revalidate();
    return answer as T;
  }

  private editAccount(address: Address, change: (account: Account) => void): Promise<void> {
    return this.edit(async (state) => {
      const account = (await state.getAccount(address)) ?? new Account();
      change(account);
      await state.putAccount(address, account);
      await this.pruneIfEmpty(state, address);
    });
  }

  /** An edit that leaves an account empty (EIP-161: no nonce, balance, code or storage) removes it, as the EVM would. */
  private async pruneIfEmpty(state: MerkleStateManager, address: Address): Promise<void> {
    const account = await state.getAccount(address);
    if (account !== undefined && account.isEmpty() && equalsBytes(account.storageRoot, KECCAK256_RLP)) await state.deleteAccount(address);
  }

  /** Runs `change` on the head's state in the miner's turn (no block is being built on it meanwhile) and lands the result. */
  private edit(change: (state: MerkleStateManager) => Promise<void>): Promise<void> {
    return this.miner.exclusive(async () => {
      const state = this.chain.state.writer;
      const root = this.chain.headStateRoot();
      if (!equalsBytes(await state.getStateRoot(), root)) await state.setStateRoot(root);
      try {
        await change(state);
        await this.chain.commitHeadState(await state.getStateRoot());
      } catch (error) {
        this.chain.state.discard();
        await state.setStateRoot(root);
        throw error;
      }
    });
  }
}
