import type { Common } from '@ethereumjs/common';
import { bigIntToHex, bytesToHex, equalsBytes, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { CACHE_LIMITS } from '../caches.js';
import type { ForkStore } from './fork-store.js';
import { ForkValues, PROOFLESS, unserved } from './fork-values.js';
import { findPreimage } from './preimage.js';
import { ProofNodes, type RemoteProof } from './proof-nodes.js';
import { accountRecord, CODE, concat, ForkStateMissing, slotRecord, type RemoteBlock } from './proof-records.js';
import { RemoteError, type RemoteRpc } from './remote.js';
import { ringSlotsAhead } from './ring-slots.js';
import { RemoteAccessLists } from './run-access-list.js';
import { SlotsByCode } from './slots-by-code.js';
import { systemReads } from './system-reads.js';
import type { ListedKeys } from '../state/run-request.js';
import { waitedFor, type ReadWatch } from '../state/snapshot.js';

/**
 * A storage trie node not fetched, met by a read of a slot's value: the slot is the remote's. One
 * object thrown each time, not an Error: a cold read meets it once, and capturing a stack for it
 * cost more than the read's walk.
 */
const UNFETCHED = Object.freeze({ unfetched: true });

/** One eth_getProof to send: an account and the slots asked for of it meanwhile. */
interface ProofRequest {
  block: RemoteBlock;
  address: Uint8Array;
  slots: Map<string, Uint8Array>;
  done: Promise<void>;
  settle(error?: Error): void;
}

/** The deepest path a missing node may sit at and still be fetched: finding a key under it takes ~16^depth hashes. */
const MAX_PREIMAGE_DEPTH = 6;

/** Keys of an access list fetched ahead at most (eth_getStorageValues' bound): the EVM fetches any others as it meets them. */
const MAX_LISTED_KEYS = 1024;

/**
 * The state of a forked chain, read lazily from the remote: an account, a slot or code is fetched
 * the first time the node needs it, as an EIP-1186 proof whose nodes join the node's trie. The
 * state at the fork block is then a partial trie whose root is the remote's state root, and every
 * local block on top of it has a real state root; proofs of it verify.
 *
 * Reads say what they need before they walk the trie ({@link account}, {@link slot}): those arriving
 * together go out as one eth_getProof per account (the slots asked for meanwhile with it), gathered
 * until the RemoteRpc's next batch goes out and sent in it. What nobody asked for beforehand — code, found by
 * its hash, and the sibling a delete folds into its parent — reaches the trie store as a missing
 * node ({@link node}): code is fetched for the account known to own it, and a node by a proof of a
 * key found to pass through it.
 *
 * Everything fetched is written to the fork's store (nodes by their hash, computed here: the remote
 * is never trusted for a mapping), with a record of which account and slot it proves, so a second
 * run or a reset to the same block asks the remote nothing it asked before.
 */
export class ForkState {
  private readonly roots = new Map<string, RemoteBlock>();
  private readonly byNumber = new Map<bigint, RemoteBlock>();
  /** Accounts and slots known to be in the store (their record's key, hex): saves a lookup of the record. */
  private resolved = new Set<string>();
  /** Requests being gathered, by block and account. */
  private readonly gathering = new Map<string, ProofRequest>();
  /** Accounts (by block and address) whose proof is in flight. */
  private readonly proving = new Set<string>();
  /** What is being fetched, by record key: the same key asked again waits for the same answer. */
  private readonly fetching = new Map<string, Promise<void>>();
  private readonly byCode = new SlotsByCode();
  private readonly proofs: ProofNodes;
  private readonly slotValues: ForkValues;
  /**
   * Blocks being built ({@link whileWriting}): what they read they mostly write, which needs the
   * proof anyway, so meanwhile views read slots by proof too (a call running beside pays a proof
   * where a value would do; never a wrong answer).
   */
  private writers = 0;
  /** Set once the remote refused eth_getProof (kept in the fork's store): the state is then read as plain values. */
  private proofless?: ForkValues;
  /**
   * Whether a call's target has its code fetched with its proof ({@link callTarget}): off after a
   * target whose code the node had already (a clone of a contract read before), on again once a
   * code had to be fetched on its own. A run of clones (a DEX's pairs) then costs one code fetched
   * for nothing, not one each.
   */
  private codeWithTarget = true;
  /** Runs' access lists, asked of the remote once a run waits for it too often: {@link RemoteAccessLists.watchFor}. */
  readonly accessLists: RemoteAccessLists;

  constructor(
    readonly base: RemoteBlock,
    private readonly store: ForkStore,
    /** undefined: --offline, the store alone answers */
    private readonly remote: RemoteRpc | undefined,
    private readonly keccak: (data: Uint8Array) => Uint8Array,
  ) {
    this.proofs = new ProofNodes(store, keccak, this.byCode, (number) => this.byNumber.get(number));
    this.addRemoteBlock(base);
    this.slotValues = new ForkValues(store, remote, keccak, (address) => this.byCode.firstMissOf(address));
    this.accessLists = new RemoteAccessLists(remote, (block, lists, proofs) => this.listed(block, lists, proofs, true));
    if (store.db.meta.getSync(PROOFLESS) !== undefined) this.proofless = new ForkValues(store, remote, keccak);
  }

  /** The plain values of a fork whose remote serves no eth_getProof (its state roots are then the node's own); undefined while proofs are read. */
  get values(): ForkValues | undefined {
    return this.proofless;
  }

  /** Resolves once it is known how the remote's state is read: by proofs (what the fork block's root node needs), or as plain values. */
  async settleMode(): Promise<void> {
    if (this.proofless === undefined) await this.node(bytesToHex(this.base.stateRoot).slice(2));
  }

  private missing = (block: RemoteBlock) => (what: string) => new ForkStateMissing(`--offline: the fork cache holds no ${what} at block ${block.number}`);

  /** Makes `block`'s state readable: its state root is fetched by the remote block it belongs to. */
  addRemoteBlock(block: RemoteBlock): void {
    this.roots.set(bytesToHex(block.stateRoot), block);
    this.byNumber.set(block.number, block);
    this.proofs.addRoot(block);
  }

  /** Whether `stateRoot` is a remote block's: its state is the remote's, fetched as it is read. */
  isRemote(stateRoot: Uint8Array): boolean {
    return this.roots.has(bytesToHex(stateRoot));
  }

  /** The remote block whose state a state root reads: its own for a remote block's root, the fork block's for any local state. */
  blockOf(stateRoot: Uint8Array): RemoteBlock {
    return this.roots.get(bytesToHex(stateRoot)) ?? this.base;
  }

  /** Resolves once `address`'s account at `block` is in the trie store (its path, its leaf or where it would be). */
  account(block: RemoteBlock, address: Uint8Array): Promise<void> | undefined {
    if (this.proofless !== undefined) return this.proofless.account(block, address, this.missing(block));
    return this.need(accountRecord(block, address), block, address);
  }

  /**
   * `address`'s account and, if it has any, its code, fetched together: what a call's target needs
   * before it runs, and the EVM asks for one after the other (a round trip each). The code is kept
   * when an account fetched names its hash; an answer that fails or does not match is dropped, and
   * the EVM's own read of the code fetches it again. Not while clones are being read ({@link codeWithTarget}).
   */
  async callTarget(block: RemoteBlock, address: Uint8Array): Promise<void> {
    // Calls to a target already on its way share its fetch; the one that started it asks for the code.
    const started = this.fetching.has(accountRecord(block, address).toString('hex'));
    const account = this.account(block, address);
    if (account === undefined || started || this.proofless !== undefined || this.remote === undefined || !this.codeWithTarget) return account;
    const code = this.remote.call<unknown>('eth_getCode', [bytesToHex(address), bigIntToHex(block.number)]).catch(() => undefined);
    await account;
    const answer = await code;
    if (typeof answer !== 'string' || !/^0x(?:[0-9a-fA-F]{2})+$/.test(answer)) return;
    const bytes = hexToBytes(answer as PrefixedHexString);
    const key = concat(Uint8Array.of(CODE), this.keccak(bytes));
    if (this.store.db.trie.getSync(key) !== undefined) {
      this.codeWithTarget = false;
      return;
    }
    if (this.store.fork.getSync(key) === undefined) return;
    await this.store.db.trie.put(key, bytes);
  }

  /** Resolves once `slot` of `address`'s storage at `block` is in the trie store, with the account. */
  slot(block: RemoteBlock, address: Uint8Array, slot: Uint8Array): Promise<void> | undefined {
    if (this.proofless !== undefined) return this.proofless.slot(block, address, slot, this.missing(block));
    return this.need(slotRecord(block, address, slot), block, address, slot);
  }

  /**
   * What access lists (EIP-2930) name, fetched at once before the call or block carrying them runs:
   * the EVM would fetch each account and slot as it meets them, a round trip each. A slot comes the
   * way the run will read it — a value for a read that writes nothing, a proof for a block (`proofs`,
   * or while one is built) — so it is not fetched twice; one the run never reads costs bytes in the
   * same batch, not a round trip. `withCode`: accounts come with their code (as {@link callTarget}).
   */
  async listed(block: RemoteBlock, lists: Iterable<ListedKeys>, proofs = false, withCode = false): Promise<void> {
    const waits: (Promise<void> | undefined)[] = [];
    let room = MAX_LISTED_KEYS;
    for (const [address, slots] of lists) {
      if (room <= 0) break;
      room--;
      waits.push(withCode ? this.callTarget(block, address) : this.account(block, address));
      for (const slot of slots.slice(0, room)) {
        room--;
        const byProof = proofs || this.proofless !== undefined || this.writers > 0 || this.known(block, address, slot);
        waits.push(byProof ? this.slot(block, address, slot) : this.slotValues.slot(block, address, slot, this.missing(block)));
      }
    }
    await Promise.all(waits);
  }

  /** Fetches what the system calls at the start of the block after `block` read (system-reads.ts); `next`: that block. */
  readSystem(block: RemoteBlock, common: Common, next: { number: bigint; timestamp: bigint }): Promise<unknown> {
    return Promise.all(systemReads(this, block, common, next).map(async (read) => read()));
  }

  /** Resolves once the account and every slot in `slots` are in the trie store: what a proof walks. */
  async prove(block: RemoteBlock, address: Uint8Array, slots: Uint8Array[]): Promise<void> {
    await Promise.all([this.account(block, address), ...slots.map((slot) => this.slot(block, address, slot))]);
  }

  /**
   * A slot's value for a read that writes nothing (`read` walks a view's trie to it, which reads
   * the store as views do: {@link node} with `byValue`): where the walk meets a storage node no
   * proof brought, no write ever passed there, so the slot is the
   * remote's — fetched as a value (eth_getStorageAt, or eth_getStorageValues where served), which
   * costs a remote far less than a proof (anvil: ~9 ms against 40–55). A write fetches the slot's
   * proof as before, so state roots stay real.
   */
  async slotValue(block: RemoteBlock, address: Uint8Array, slot: Uint8Array, read: () => Promise<Uint8Array>, watch?: ReadWatch): Promise<Uint8Array> {
    if (this.writers > 0 || this.known(block, address, slot)) {
      await waitedFor(this.slot(block, address, slot), watch);
      return read();
    }
    await waitedFor(this.account(block, address), watch);
    try {
      return await read();
    } catch (error) {
      if (error !== UNFETCHED) throw error;
      this.byCode.touched(address, slot);
      await waitedFor(this.slotValues.slot(block, address, slot, this.missing(block)), watch);
      return this.slotValues.slotOf(block, address, slot);
    }
  }

  /** Runs `task` (block building, an import) reading slots by their proofs, views too: the blocks will write what they read. */
  async whileWriting<T>(task: () => Promise<T>): Promise<T> {
    this.writers++;
    try {
      return await task();
    } finally {
      this.writers--;
    }
  }

  private need(record: Buffer, block: RemoteBlock, address: Uint8Array, slot?: Uint8Array): Promise<void> | undefined {
    const key = (record as Buffer).toString('hex');
    if (this.resolved.has(key)) return undefined;
    if (this.store.fork.getSync(record) !== undefined) {
      this.remember(key);
      return undefined;
    }
    const running = this.fetching.get(key);
    if (running !== undefined) return running;
    if (this.remote === undefined) {
      throw new ForkStateMissing(
        `--offline: the fork cache holds no ${slot === undefined ? 'account' : `slot ${bytesToHex(slot)} of account`} ${bytesToHex(address)} at block ${block.number}`,
      );
    }
    const request = this.requestFor(block, address);
    if (slot !== undefined) {
      request.slots.set(bytesToHex(slot), slot);
      for (const next of ringSlotsAhead(address, slot)) if (!this.known(block, address, next)) request.slots.set(bytesToHex(next), next);
      // An account's first miss brings the slots other contracts of the same code were read at.
      for (const alike of this.byCode.firstMissOf(address)) if (!this.known(block, address, alike)) request.slots.set(bytesToHex(alike), alike);
      this.byCode.touched(address, slot);
    }
    const done = request.done.then(() => {
      this.fetching.delete(key);
      this.remember(key);
    }, (error: Error) => {
      this.fetching.delete(key);
      throw error;
    });
    this.fetching.set(key, done);
    return done;
  }

  /** Whether a slot's proof is in the store already (a lookup of its record; no fetch). */
  private known(block: RemoteBlock, address: Uint8Array, slot: Uint8Array): boolean {
    const record = slotRecord(block, address, slot);
    return this.resolved.has(record.toString('hex')) || this.store.fork.getSync(record) !== undefined;
  }

  private remember(key: string): void {
    if (this.resolved.size >= CACHE_LIMITS.forkResolvedKeys) this.resolved = new Set();
    this.resolved.add(key);
  }

  /**
   * The account's next request: the one gathering what is asked of it, made if there is none. It
   * goes out with the remote's next batch — or, while a proof of the account is in flight, when that one
   * is answered: slots asked for meanwhile wait for it and then go together. A remote computes a
   * proof of many slots in about the time of one (anvil builds the account's trie for each), so
   * this asks it less, and no more slowly.
   */
  private requestFor(block: RemoteBlock, address: Uint8Array): ProofRequest {
    const key = `${bytesToHex(block.hash)}:${bytesToHex(address)}`;
    let request = this.gathering.get(key);
    if (request !== undefined) return request;
    let settle!: (error?: Error) => void;
    const done = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // Nobody may be waiting yet when it fails (a missing node found on the way is asked for later).
    done.catch(() => {});
    request = { block, address, slots: new Map(), done, settle };
    this.gathering.set(key, request);
    if (!this.proving.has(key)) this.remote!.beforeSending(() => this.send(key));
    return request;
  }

  /** Sends the account's gathered request, and when it is answered the one gathered meanwhile. */
  private send(key: string): void {
    const request = this.gathering.get(key);
    if (request === undefined || this.proving.has(key)) return;
    this.gathering.delete(key);
    this.proving.add(key);
    void this.fetchProof(request).finally(() => {
      this.proving.delete(key);
      if (this.gathering.has(key)) this.send(key);
    });
  }

  private async fetchProof(request: ProofRequest): Promise<void> {
    const { block, address, slots } = request;
    const slotList = [...slots.values()];
    try {
      const proof = await this.remote!.call<RemoteProof>('eth_getProof', [bytesToHex(address), slotList.map((slot) => bytesToHex(slot)), bigIntToHex(block.number)]);
      await this.store.db.root.batch(this.proofs.ops(block, address, slotList, proof));
      request.settle();
    } catch (error) {
      if (unserved(error)) {
        // A remote without proofs: from now on this fork's state is read as plain values.
        try {
          await this.becomeProofless();
          await Promise.all([this.account(block, address), ...slotList.map((slot) => this.slot(block, address, slot))]);
          request.settle();
        } catch (fallback) {
          request.settle(fallback as Error);
        }
        return;
      }
      // What says what went wrong goes on as it is (the remote's failure, a cache a reset closed); the rest came of the answer.
      const named = error instanceof RemoteError || error instanceof ForkStateMissing || (error as { code?: unknown }).code === 'LEVEL_DATABASE_NOT_OPEN';
      request.settle(named ? (error as Error) : new RemoteError(`the fork's remote gave an unusable proof of ${bytesToHex(address)} at block ${block.number}: ${(error as Error).message}`));
    }
  }

  private async becomeProofless(): Promise<void> {
    if (this.proofless !== undefined) return;
    this.proofless = new ForkValues(this.store, this.remote, this.keccak);
    await this.store.db.meta.put(PROOFLESS, Buffer.from(this.remote?.shownUrl ?? ''));
  }

  /**
   * A trie node or code the trie store does not hold (its key as the trie asks for it, in hex):
   * from the fork's store, else fetched — code for the account that owns it, a node by the proof
   * of a key found to pass through it. Undefined only for what no fork state can hold.
   */
  async node(key: string, byValue = false): Promise<Uint8Array | undefined> {
    const bytes = Buffer.from(key, 'hex');
    const stored = this.store.db.trie.getSync(bytes);
    if (stored !== undefined) return stored;
    if (bytes.length === 33 && bytes[0] === CODE) return this.code(bytes.subarray(1));
    if (bytes.length !== 32) return undefined;
    const valuesRoot = this.valuesRoot(key);
    if (valuesRoot !== undefined) return valuesRoot;
    if (this.proofless !== undefined) throw new ForkStateMissing(`the forked state, read as plain values, has no trie node 0x${key}`);
    const known = this.proofs.placeOf(key);
    // A view's read that misses a node met no write: its account's path came with the account's
    // proof, so what it misses is storage, the remote's (no need to find where, which after a
    // restart means rebuilding the places from every proof kept).
    if (byValue && this.writers === 0 && (known === undefined || known.owner !== undefined)) throw UNFETCHED;
    const place = known ?? (await this.proofs.findPlace(key));
    if (place === undefined) throw new ForkStateMissing(`the forked state has no trie node 0x${key}, and nothing the node fetched leads to it`);
    if (place.path.length > MAX_PREIMAGE_DEPTH) {
      throw new ForkStateMissing(`the forked state needs trie node 0x${key} at depth ${place.path.length}, deeper than a key can be found for (at most ${MAX_PREIMAGE_DEPTH})`);
    }
    const preimage = findPreimage(place.path, place.owner === undefined ? 20 : 32, this.keccak);
    await (place.owner === undefined ? this.account(place.block, preimage) : this.slot(place.block, place.owner, preimage));
    const root = this.valuesRoot(key);
    if (root !== undefined) return root;
    const found = this.store.db.trie.getSync(bytes);
    if (found === undefined) throw new ForkStateMissing(`the fork's remote gave no trie node 0x${key} in the proof of a key under it`);
    return found;
  }

  /** Read as plain values, a remote block's state root is the node's own empty root of that block (fork-values.ts). */
  private valuesRoot(key: string): Uint8Array | undefined {
    const block = this.proofless === undefined ? undefined : this.roots.get(`0x${key}`);
    return block === undefined ? undefined : this.proofless!.rootNode(block);
  }

  private async code(codeHash: Uint8Array): Promise<Uint8Array> {
    const owner = this.store.fork.getSync(concat(Uint8Array.of(CODE), codeHash));
    if (owner === undefined) throw new ForkStateMissing(`the forked state has no code ${bytesToHex(codeHash)}, and no account fetched owns it`);
    if (this.remote === undefined) throw new ForkStateMissing(`--offline: the fork cache holds no code ${bytesToHex(codeHash)}`);
    const number = BigInt(bytesToHex(owner.subarray(0, 8)));
    const address = bytesToHex(owner.subarray(8));
    this.codeWithTarget = true;
    const code = hexToBytes(await this.remote.call<PrefixedHexString>('eth_getCode', [address, bigIntToHex(number)]));
    if (!equalsBytes(this.keccak(code), codeHash)) {
      throw new RemoteError(`the fork's remote answered eth_getCode of ${address} at block ${number} with code whose hash is not the account's ${bytesToHex(codeHash)}`);
    }
    await this.store.db.trie.put(concat(Uint8Array.of(CODE), codeHash), code);
    return code;
  }
}
