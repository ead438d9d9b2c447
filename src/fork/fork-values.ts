import { RLP } from '@ethereumjs/rlp';
import { Account, bigIntToHex, bytesToHex, createAccountFromRLP, hexToBytes, setLengthLeft, unpadBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { BatchOp } from '../storage/database.js';
import type { ForkStore } from './fork-store.js';
import { RemoteError, type RemoteRpc } from './remote.js';

/** A block of the remote chain whose state the node reads (fork-state.ts). */
interface ValueBlock {
  number: bigint;
}

/** Slots of one account asked for in one turn. */
interface SlotRequest {
  block: ValueBlock;
  address: Uint8Array;
  slots: Map<string, Uint8Array>;
  done: Promise<void>;
  settle(error?: Error): void;
}

/** Records of what was fetched as plain values: apart from the proof records (fork-state.ts), so neither kind is read as the other. */
const VALUE_ACCOUNT = 0x41;
const VALUE_SLOT = 0x53;
const CODE = 0x63;
/** The fork store's meta key saying its state is read as plain values (the remote serves no eth_getProof). */
export const PROOFLESS = Buffer.from('proofless');
const storageValuesKey = (url: string) => Buffer.from(`storageValues:${url}`);
/** eth_getStorageValues' bound on slots per call (this node's -38026; geth's too). */
const MAX_SLOTS_PER_CALL = 1024;

const numberBytes = (n: bigint) => setLengthLeft(hexToBytes(bigIntToHex(n)), 8);
const concat = (...parts: Uint8Array[]): Buffer => Buffer.concat(parts);
const emptyBranch = (value: Uint8Array) => RLP.encode([...Array.from({ length: 16 }, () => new Uint8Array()), value]);
/** Whether the remote refused a call because it does not serve the method (remote.ts tells). */
export const unserved = (error: unknown): boolean => error instanceof RemoteError && error.unserved;

function hexAnswer(value: unknown, what: string): PrefixedHexString {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]*$/.test(value)) throw new RemoteError(`the fork's remote answered ${what} with ${JSON.stringify(value)?.slice(0, 200)}, which is not hex`);
  return value as PrefixedHexString;
}

/**
 * The state of a fork whose remote serves no eth_getProof, read as plain values: an account is
 * eth_getBalance, eth_getTransactionCount and eth_getCode at the block (one batch), a slot
 * eth_getStorageAt — or, where the remote serves it (asked once, the verdict kept per remote),
 * eth_getStorageValues for every slot asked for in one turn, in one call.
 *
 * No trie of the remote's state can be built from values, so the node keeps its own tries over
 * them: the remote block's state root reads as an empty branch (its value naming the block), and
 * an account with code gets a storage root of its own (an empty branch naming the account and the
 * block), which the account's local writes grow. A key such a trie lacks reads the remote's value
 * (fork-aware-state.ts); state roots are the node's, not the chain's, and prove nothing.
 *
 * Values are checked for shape and code against nothing but its hash: a fetch that fails is
 * never recorded, so it is never read as zero.
 */
export class ForkValues {
  private readonly fetching = new Map<string, Promise<void>>();
  private gathering = new Map<string, SlotRequest>();
  private storageValues?: boolean;

  constructor(
    private readonly store: ForkStore,
    private readonly remote: RemoteRpc | undefined,
    private readonly keccak: (data: Uint8Array) => Uint8Array,
    /** for an account's first miss, the slots contracts of its code were read at (fork/slots-by-code.ts) */
    private readonly firstMissOf: (address: Uint8Array) => Iterable<Uint8Array> = () => [],
  ) {
    if (remote !== undefined) {
      const verdict = store.db.meta.getSync(storageValuesKey(remote.shownUrl));
      if (verdict !== undefined) this.storageValues = verdict[0] === 1;
    }
  }

  /** The node a remote block's state root reads as: an empty branch whose value names the block, so local tries over it differ from block to block. */
  rootNode(block: ValueBlock): Uint8Array {
    return emptyBranch(concat(Buffer.from('evm-node fork values at block '), numberBytes(block.number)));
  }

  /** Resolves once `address`'s account at `block` is recorded. */
  account(block: ValueBlock, address: Uint8Array, missing: (what: string) => Error): Promise<void> | undefined {
    const record = concat(Uint8Array.of(VALUE_ACCOUNT), numberBytes(block.number), address);
    return this.need(record, missing, `account ${bytesToHex(address)}`, () => this.fetchAccount(block, address, record));
  }

  /** Resolves once `slot` of `address`'s storage at `block` is recorded. */
  slot(block: ValueBlock, address: Uint8Array, slot: Uint8Array, missing: (what: string) => Error): Promise<void> | undefined {
    const record = concat(Uint8Array.of(VALUE_SLOT), numberBytes(block.number), address, slot);
    return this.need(record, missing, `slot ${bytesToHex(slot)} of account ${bytesToHex(address)}`, () => this.gatherSlot(block, address, slot));
  }

  /** The remote's account at `block` (undefined: none), once {@link account} resolved. */
  accountOf(block: ValueBlock, address: Uint8Array): Account | undefined {
    const value = this.store.fork.getSync(concat(Uint8Array.of(VALUE_ACCOUNT), numberBytes(block.number), address));
    return value === undefined || value.length === 0 ? undefined : createAccountFromRLP(value);
  }

  /** The remote's slot value at `block` (unpadded), once {@link slot} resolved. */
  slotOf(block: ValueBlock, address: Uint8Array, slot: Uint8Array): Uint8Array {
    return this.store.fork.getSync(concat(Uint8Array.of(VALUE_SLOT), numberBytes(block.number), address, slot)) ?? new Uint8Array();
  }

  private need(record: Buffer, missing: (what: string) => Error, what: string, fetch: () => Promise<void>): Promise<void> | undefined {
    if (this.store.fork.getSync(record) !== undefined) return undefined;
    const key = record.toString('hex');
    const running = this.fetching.get(key);
    if (running !== undefined) return running;
    if (this.remote === undefined) throw missing(what);
    const done = fetch().finally(() => this.fetching.delete(key));
    this.fetching.set(key, done);
    return done;
  }

  private async fetchAccount(block: ValueBlock, address: Uint8Array, record: Buffer): Promise<void> {
    const at = [bytesToHex(address), bigIntToHex(block.number)];
    const [balance, nonce, code] = await Promise.all([
      this.remote!.call<unknown>('eth_getBalance', at),
      this.remote!.call<unknown>('eth_getTransactionCount', at),
      this.remote!.call<unknown>('eth_getCode', at),
    ]);
    const what = (method: string) => `${method} of ${bytesToHex(address)} at block ${block.number}`;
    const account = new Account(BigInt(hexAnswer(nonce, what('eth_getTransactionCount'))), BigInt(hexAnswer(balance, what('eth_getBalance'))));
    const bytecode = hexToBytes(hexAnswer(code, what('eth_getCode')));
    const ops: BatchOp[] = [];
    const put = (sublevel: BatchOp['sublevel'], key: Uint8Array, value: Uint8Array) => ops.push({ type: 'put', sublevel, key, value } as BatchOp);
    if (bytecode.length > 0) {
      account.codeHash = this.keccak(bytecode);
      put(this.store.db.trie, concat(Uint8Array.of(CODE), account.codeHash), bytecode);
      // Its own storage trie, naming the account and block, so the remote's slots show through it.
      const storageRoot = emptyBranch(concat(address, numberBytes(block.number)));
      account.storageRoot = this.keccak(storageRoot);
      put(this.store.db.trie, account.storageRoot, storageRoot);
    }
    const exists = account.nonce !== 0n || account.balance !== 0n || bytecode.length > 0;
    put(this.store.fork, record, exists ? account.serialize() : new Uint8Array());
    await this.store.db.root.batch(ops);
  }

  /** Joins the slots asked for until the remote's next batch goes out: they go out together in it. */
  private gatherSlot(block: ValueBlock, address: Uint8Array, slot: Uint8Array): Promise<void> {
    const key = `${block.number}:${bytesToHex(address)}`;
    let request = this.gathering.get(key);
    if (request === undefined) {
      if (this.gathering.size === 0) this.remote!.beforeSending(() => void this.sendSlots());
      let settle!: (error?: Error) => void;
      const done = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
      request = { block, address, slots: new Map(), done, settle };
      this.gathering.set(key, request);
      // One eth_getStorageValues carries any number of slots: the account's kin's come along.
      if (this.storageValues === true) {
        for (const kin of this.firstMissOf(address)) {
          if (this.store.fork.getSync(concat(Uint8Array.of(VALUE_SLOT), numberBytes(block.number), address, kin)) === undefined) request.slots.set(bytesToHex(kin), kin);
        }
      }
    }
    request.slots.set(bytesToHex(slot), slot);
    return request.done;
  }

  private async sendSlots(): Promise<void> {
    const requests = [...this.gathering.values()];
    this.gathering = new Map();
    const byBlock = new Map<bigint, SlotRequest[]>();
    for (const request of requests) byBlock.set(request.block.number, [...(byBlock.get(request.block.number) ?? []), request]);
    await Promise.all(
      [...byBlock.values()].map(async (group) => {
        try {
          if (this.storageValues !== false && (await this.bySlotValues(group))) return;
          await Promise.all(group.map((request) => this.byStorageAt(request)));
        } catch (error) {
          for (const request of group) request.settle(error as Error);
        }
      }),
    );
  }

  /** The group's slots by eth_getStorageValues, in calls of at most 1024 slots; false if the remote does not serve it (then remembered). */
  private async bySlotValues(group: SlotRequest[]): Promise<boolean> {
    const calls: SlotRequest[][] = [[]];
    let count = 0;
    for (const request of group) {
      if (count + request.slots.size > MAX_SLOTS_PER_CALL && count > 0) {
        calls.push([]);
        count = 0;
      }
      calls[calls.length - 1].push(request);
      count += request.slots.size;
    }
    const number = group[0].block.number;
    try {
      await Promise.all(
        calls.map(async (requests) => {
          const asked = Object.fromEntries(requests.map((request) => [bytesToHex(request.address), [...request.slots.keys()]]));
          const answer = await this.remote!.call<Record<string, unknown>>('eth_getStorageValues', [asked, bigIntToHex(number)]);
          const byAddress = new Map(Object.entries(typeof answer === 'object' && answer !== null ? answer : {}).map(([address, values]) => [address.toLowerCase(), values]));
          const ops: BatchOp[] = [];
          for (const request of requests) {
            const values = byAddress.get(bytesToHex(request.address));
            if (!Array.isArray(values) || values.length !== request.slots.size) {
              throw new RemoteError(`the fork's remote answered eth_getStorageValues without the ${request.slots.size} values of ${bytesToHex(request.address)} at block ${number}`);
            }
            [...request.slots.values()].forEach((slot, i) => ops.push(this.slotOp(request, slot, values[i], 'eth_getStorageValues')));
          }
          await this.store.db.root.batch(ops);
          for (const request of requests) request.settle();
        }),
      );
      await this.remember(true);
      return true;
    } catch (error) {
      if (!unserved(error)) throw error;
      await this.remember(false);
      return false;
    }
  }

  private async byStorageAt(request: SlotRequest): Promise<void> {
    const address = bytesToHex(request.address);
    const slots = [...request.slots.values()];
    const values = await Promise.all(slots.map((slot) => this.remote!.call<unknown>('eth_getStorageAt', [address, bytesToHex(slot), bigIntToHex(request.block.number)])));
    await this.store.db.root.batch(slots.map((slot, i) => this.slotOp(request, slot, values[i], 'eth_getStorageAt')));
    request.settle();
  }

  private slotOp(request: SlotRequest, slot: Uint8Array, value: unknown, method: string): BatchOp {
    const bytes = hexToBytes(hexAnswer(value, `${method} of slot ${bytesToHex(slot)} of ${bytesToHex(request.address)}`));
    if (bytes.length > 32) throw new RemoteError(`the fork's remote answered ${method} of slot ${bytesToHex(slot)} of ${bytesToHex(request.address)} with ${bytes.length} bytes`);
    return { type: 'put', sublevel: this.store.fork, key: concat(Uint8Array.of(VALUE_SLOT), numberBytes(request.block.number), request.address, slot), value: unpadBytes(bytes) };
  }

  private async remember(served: boolean): Promise<void> {
    if (this.storageValues === served) return;
    this.storageValues = served;
    await this.store.db.meta.put(storageValuesKey(this.remote!.shownUrl), Uint8Array.of(served ? 1 : 0));
  }
}

