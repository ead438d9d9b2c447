// geth's prestateTracer: every account (and storage slot) the transaction touched, as it was before
// the transaction — or, in diff mode, what changed: `pre` and `post` of each modified account.
import type { StateManagerInterface } from '@ethereumjs/common';
import {
  Address,
  bigIntToBytes,
  bytesToHex,
  createAddressFromString,
  equalsBytes,
  generateAddress,
  generateAddress2,
  hexToBytes,
  KECCAK256_NULL,
  setLengthLeft,
  type PrefixedHexString,
} from '@ethereumjs/util';
import type { PrestateAccount, PrestateDiff, PrestateTrace, TracerConfig } from '../../generated/types.js';
import { toHex } from '../codec/hex.js';
import { AnswerBudget } from '../format/answer-budget.js';
import { TraceError } from './errors.js';
import type { OpcodeStep, TraceHooks } from './trace-hooks.js';
import { Op } from './opcodes.js';
import type { TracedTransaction, TxTracer } from './tracer.js';

/** An account as the tracer reports it: everything before the transaction, only what changed after it. */
interface Account {
  balance?: bigint;
  code?: Uint8Array;
  codeHash?: Uint8Array;
  nonce?: bigint;
  storage?: Map<string, Uint8Array>;
}

/** An account before the transaction: `empty` when it held nothing (left out unless includeEmpty). */
interface Before extends Account {
  balance: bigint;
  nonce: bigint;
  empty: boolean;
}

const ZERO_HASH = new Uint8Array(32);
const DELEGATION_PREFIX = '0xef0100';
const word = (value: bigint) => setLengthLeft(bigIntToBytes(value), 32);
const addressOf = (value: bigint) => new Address(word(value).subarray(12));
const quantity = (value: bigint) => `0x${value.toString(16)}`;
/** An account's JSON beside its code and storage (address, balance, nonce, code hash), and a slot's, in bytes at most. */
const ACCOUNT_BYTES = 250;
const SLOT_BYTES = 138;

/** The address an EIP-7702 delegation designates, if `code` is one. */
function delegationTarget(code: Uint8Array): Address | undefined {
  return code.length === 23 && bytesToHex(code.subarray(0, 3)) === DELEGATION_PREFIX ? new Address(code.subarray(3)) : undefined;
}

/** geth's GetCodeHash: zero for an account that does not exist, the empty-code hash for one without code. */
async function codeHashOf(state: StateManagerInterface, address: Address): Promise<Uint8Array> {
  return (await state.getAccount(address))?.codeHash ?? ZERO_HASH;
}

async function slotOf(state: StateManagerInterface, address: Address, key: Uint8Array): Promise<Uint8Array> {
  return setLengthLeft(await state.getStorage(address, key), 32);
}

function sortedObject<V, R>(entries: Iterable<[string, V]>, format: (value: V) => R): Record<string, R> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, value]) => [key, format(value)]));
}

export class PrestateTracer implements TxTracer {
  private readonly pre = new Map<string, Before>();
  private readonly post = new Map<string, Account>();
  private readonly created = new Set<string>();
  private readonly deleted = new Set<string>();
  private tx?: TracedTransaction;
  readonly hooks: TraceHooks;

  /** `budget` counts the accounts' JSON before each is formatted: their code is most of it. */
  constructor(
    private readonly config: Pick<TracerConfig, 'diffMode' | 'disableCode' | 'disableStorage' | 'includeEmpty'> = {},
    private readonly budget = new AnswerBudget(Infinity, 'the trace'),
  ) {
    // Diff mode has its own rules for created and deleted accounts, which need the empty ones.
    if (config.diffMode && config.includeEmpty) throw new TraceError('cannot use diffMode with includeEmpty');
    this.hooks = { onOpcode: (step) => this.onOpcode(step) };
  }

  async start(tx: TracedTransaction, state: StateManagerInterface): Promise<void> {
    this.tx = tx;
    let to = tx.to;
    if (to === undefined) {
      const nonce = (await state.getAccount(tx.from))?.nonce ?? 0n;
      to = new Address(generateAddress(tx.from.bytes, bigIntToBytes(nonce)));
      this.created.add(to.toString());
    } else if (tx.rules.prague) {
      const target = delegationTarget(await state.getCode(to));
      if (target !== undefined) await this.lookupAccount(state, target);
    }
    await this.lookupAccount(state, tx.from);
    await this.lookupAccount(state, to);
    await this.lookupAccount(state, tx.coinbase);
    for (const authority of tx.authorities) await this.lookupAccount(state, authority);
  }

  private async onOpcode(step: OpcodeStep): Promise<void> {
    const { op, stack, state, address: caller } = step;
    const top = stack.length - 1;
    if (stack.length >= 1 && (op === Op.SLOAD || op === Op.SSTORE)) {
      await this.lookupStorage(state, caller, word(stack[top]));
    } else if (stack.length >= 1 && (op === Op.EXTCODECOPY || op === Op.EXTCODEHASH || op === Op.EXTCODESIZE || op === Op.BALANCE || op === Op.SELFDESTRUCT)) {
      await this.lookupAccount(state, addressOf(stack[top]));
      // Before EIP-6780 a SELFDESTRUCT always deletes; after it, only a contract created in this transaction.
      if (op === Op.SELFDESTRUCT && (!this.tx!.rules.cancun || this.created.has(caller.toString()))) this.deleted.add(caller.toString());
    } else if (stack.length >= 5 && (op === Op.DELEGATECALL || op === Op.CALL || op === Op.STATICCALL || op === Op.CALLCODE)) {
      const target = addressOf(stack[top - 1]);
      await this.lookupAccount(state, target);
      if (this.tx!.rules.prague) {
        const delegate = delegationTarget(await state.getCode(target));
        if (delegate !== undefined) await this.lookupAccount(state, delegate);
      }
    } else if (op === Op.CREATE) {
      const nonce = (await state.getAccount(caller))?.nonce ?? 0n;
      const created = new Address(generateAddress(caller.bytes, bigIntToBytes(nonce)));
      await this.lookupAccount(state, created);
      this.created.add(created.toString());
    } else if (stack.length >= 4 && op === Op.CREATE2) {
      const [offset, size, salt] = [stack[top - 1], stack[top - 2], stack[top - 3]];
      const init = new Uint8Array(Number(size));
      if (offset < BigInt(step.memory.length)) init.set(step.memory.subarray(Number(offset), Number(offset + size)));
      const created = new Address(generateAddress2(caller.bytes, word(salt), init));
      await this.lookupAccount(state, created);
      this.created.add(created.toString());
    }
  }

  /** Records `address` as it is now, the first time it is touched. */
  private async lookupAccount(state: StateManagerInterface, address: Address): Promise<void> {
    const key = address.toString();
    if (this.pre.has(key)) return;
    const found = await state.getAccount(address);
    const code = found === undefined ? new Uint8Array() : await state.getCode(address);
    const codeHash = found?.codeHash ?? ZERO_HASH;
    const account: Before = {
      balance: found?.balance ?? 0n,
      nonce: found?.nonce ?? 0n,
      code: code.length > 0 ? code : undefined,
      codeHash: equalsBytes(codeHash, ZERO_HASH) || equalsBytes(codeHash, KECCAK256_NULL) ? undefined : codeHash,
      empty: false,
    };
    account.empty = !(account.nonce > 0n || code.length > 0 || account.balance !== 0n);
    if (this.config.disableCode) account.code = undefined;
    if (!this.config.disableStorage) account.storage = new Map();
    this.pre.set(key, account);
  }

  private async lookupStorage(state: StateManagerInterface, address: Address, key: Uint8Array): Promise<void> {
    if (this.config.disableStorage) return;
    const slots = this.pre.get(address.toString())?.storage;
    if (slots === undefined) return;
    const slot = bytesToHex(key);
    if (!slots.has(slot)) slots.set(slot, await slotOf(state, address, key));
  }

  async finish(_outcome: unknown, state: StateManagerInterface): Promise<PrestateTrace | PrestateDiff> {
    if (this.config.diffMode) await this.diff(state);
    if (!this.config.includeEmpty) for (const [address, account] of this.pre) if (account.empty) this.pre.delete(address);
    const pre = sortedObject(this.pre, (account) => this.toJson(account));
    if (!this.config.diffMode) return pre;
    return { post: sortedObject(this.post, (account) => this.toJson(account)), pre };
  }

  /** geth's processDiffState: keep what changed, in `pre` as it was and in `post` as it is. */
  private async diff(state: StateManagerInterface): Promise<void> {
    for (const [key, before] of this.pre) {
      if (this.deleted.has(key)) continue;
      const address = createAddressFromString(key);
      const now = await state.getAccount(address);
      const after: Account = { storage: new Map() };
      let modified = false;
      const balance = now?.balance ?? 0n;
      if (balance !== before.balance) {
        modified = true;
        after.balance = balance;
      }
      const nonce = now?.nonce ?? 0n;
      if (nonce !== before.nonce) {
        modified = true;
        after.nonce = nonce;
      }
      const codeHash = await codeHashOf(state, address);
      if (!equalsBytes(codeHash, before.codeHash ?? KECCAK256_NULL)) {
        modified = true;
        after.codeHash = codeHash;
      }
      if (!this.config.disableCode) {
        const code = now === undefined ? new Uint8Array() : await state.getCode(address);
        if (!equalsBytes(code, before.code ?? new Uint8Array())) {
          modified = true;
          after.code = code;
        }
      }
      if (!this.config.disableStorage && before.storage !== undefined) {
        for (const [slot, value] of [...before.storage]) {
          if (equalsBytes(value, ZERO_HASH)) before.storage.delete(slot);
          const current = await slotOf(state, address, hexToBytes(slot as PrefixedHexString));
          if (equalsBytes(value, current)) {
            before.storage.delete(slot);
          } else {
            modified = true;
            if (!equalsBytes(current, ZERO_HASH)) after.storage!.set(slot, current);
          }
        }
      }
      if (modified) this.post.set(key, after);
      else this.pre.delete(key);
    }
  }

  private toJson(account: Account): PrestateAccount {
    this.budget.add(ACCOUNT_BYTES + 2 * (account.code?.length ?? 0) + SLOT_BYTES * (account.storage?.size ?? 0));
    this.budget.check();
    return {
      balance: account.balance === undefined ? undefined : quantity(account.balance),
      code: account.code === undefined ? undefined : toHex(account.code),
      codeHash: account.codeHash === undefined ? undefined : bytesToHex(account.codeHash),
      nonce: account.nonce === undefined || account.nonce === 0n ? undefined : Number(account.nonce),
      storage: account.storage === undefined || account.storage.size === 0 ? undefined : sortedObject(account.storage, bytesToHex),
    };
  }
}
