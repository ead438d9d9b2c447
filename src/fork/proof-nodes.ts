import { BranchMPTNode, decodeMPTNode, decodeRawMPTNode, ExtensionMPTNode, isRawMPTNode, LeafMPTNode } from '@ethereumjs/mpt';
import { bytesToHex, createAccountFromRLP, equalsBytes, hexToBytes, KECCAK256_NULL, KECCAK256_RLP, type PrefixedHexString } from '@ethereumjs/util';
import { CACHE_LIMITS } from '../caches.js';
import type { BatchOp } from '../storage/database.js';
import type { ForkStore } from './fork-store.js';
import { nibblesOf } from './preimage.js';
import { ACCOUNT, CODE, concat, numberBytes, SLOT, type RemoteBlock } from './proof-records.js';
import { RemoteError } from './remote.js';
import type { SlotsByCode } from './slots-by-code.js';

/** Where a trie node not fetched yet sits: in which block's state, which trie (an account's storage, or the accounts), at which path. */
export interface NodePlace {
  block: RemoteBlock;
  owner?: Uint8Array;
  path: number[];
}

/** eth_getProof's answer, as far as it is read here: the proofs (values are read from the nodes, which the state root authenticates). */
export interface RemoteProof {
  accountProof: PrefixedHexString[];
  storageProof: { proof: PrefixedHexString[] }[] | null;
}

/**
 * The nodes EIP-1186 proofs bring, checked from the block's state root down to each key, and the
 * places of the nodes they pass by without holding them (a branch's other children): a read or a
 * delete that needs one later finds where it sits, and so which key to ask a proof of.
 */
export class ProofNodes {
  private readonly places = new Map<string, NodePlace>();
  private rebuilt?: Promise<void>;

  constructor(
    private readonly store: ForkStore,
    private readonly keccak: (data: Uint8Array) => Uint8Array,
    /** learns which code each proved account has (prefetch by code) */
    private readonly byCode: SlotsByCode,
    /** the remote block of a number, when its state is read */
    private readonly blockAt: (number: bigint) => RemoteBlock | undefined,
  ) {}

  /** Places `block`'s state root: the root of every walk of its state. */
  addRoot(block: RemoteBlock): void {
    this.places.set(bytesToHex(block.stateRoot).slice(2), { block, path: [] });
  }

  /** Where the node `key` (hex) sits, if a proof passed by it. */
  placeOf(key: string): NodePlace | undefined {
    return this.places.get(key);
  }

  /** Where the node `key` sits, the places rebuilt from the store's records first if it is not known (after a restart). */
  async findPlace(key: string): Promise<NodePlace | undefined> {
    // Reads arriving together all wait for the one rebuild.
    if (!this.places.has(key)) await (this.rebuilt ??= this.rebuildPlaces());
    return this.places.get(key);
  }

  /**
   * What a proof adds to the store: its nodes by their hash, the records of what it proves, and
   * who owns the account's code. The nodes must lead from the block's state root (and the
   * account's storage root) to each key's leaf or to where it would be: the remote's values are
   * not read, the nodes' are.
   */
  ops(block: RemoteBlock, address: Uint8Array, slots: Uint8Array[], proof: RemoteProof): BatchOp[] {
    // Some nodes (this one) answer `storageProof: null` when no slot was asked for.
    if (typeof proof !== 'object' || proof === null || !Array.isArray(proof.accountProof) || (slots.length > 0 && !Array.isArray(proof.storageProof))) {
      throw new RemoteError(`the fork's remote answered eth_getProof with something that is no proof: ${JSON.stringify(proof).slice(0, 200)}`);
    }
    const fresh = new Map<string, Uint8Array>();
    const add = (nodes: PrefixedHexString[]) => {
      for (const node of nodes) {
        const bytes = hexToBytes(node);
        fresh.set(bytesToHex(this.keccak(bytes)).slice(2), bytes);
      }
    };
    add(proof.accountProof);
    const first = proof.accountProof[0];
    if (first !== undefined && !equalsBytes(this.keccak(hexToBytes(first)), block.stateRoot)) {
      throw new RemoteError(
        `the fork's remote proved ${bytesToHex(address)} at block ${block.number} from another state root than the block's ${bytesToHex(block.stateRoot)}: its state at that block is not what the block's header commits to`,
      );
    }
    const leaf = this.walk(block.stateRoot, this.keccak(address), fresh, { block, path: [] }, `account ${bytesToHex(address)}`);
    const account = leaf === null ? undefined : createAccountFromRLP(leaf);
    const ops: BatchOp[] = [];
    const put = (key: Uint8Array, value: Uint8Array) => ops.push({ type: 'put', sublevel: this.store.fork, key, value });
    put(concat(Uint8Array.of(ACCOUNT), numberBytes(block.number), address), new Uint8Array());
    slots.forEach((slot, i) => {
      if (account !== undefined && !equalsBytes(account.storageRoot, KECCAK256_RLP)) {
        add(proof.storageProof?.[i]?.proof ?? []);
        this.walk(account.storageRoot, this.keccak(slot), fresh, { block, owner: address, path: [] }, `slot ${bytesToHex(slot)} of ${bytesToHex(address)}`);
      }
      put(concat(Uint8Array.of(SLOT), numberBytes(block.number), address, slot), new Uint8Array());
    });
    if (account !== undefined) {
      if (!equalsBytes(account.codeHash, KECCAK256_NULL)) this.byCode.codeIs(address, account.codeHash);
      if (!equalsBytes(account.storageRoot, KECCAK256_RLP)) this.place(account.storageRoot, { block, owner: address, path: [] });
      if (!equalsBytes(account.codeHash, KECCAK256_NULL)) put(concat(Uint8Array.of(CODE), account.codeHash), concat(numberBytes(block.number), address));
    }
    for (const [key, node] of fresh) ops.push({ type: 'put', sublevel: this.store.db.trie, key: Buffer.from(key, 'hex'), value: node });
    return ops;
  }

  private storedNode(hashHex: string, fresh: Map<string, Uint8Array>): Uint8Array | undefined {
    return fresh.get(hashHex) ?? this.store.db.trie.getSync(Buffer.from(hashHex, 'hex'));
  }

  /**
   * Walks the trie from `root` to `keyHash` over `fresh` and the stored nodes: the value at the
   * end, or null where the key is absent. Every node the walk passes by (a branch's other children,
   * an extension it leaves) is noted with its place, so a later delete that needs it can fetch it.
   * A node missing on the way means the proof was incomplete.
   */
  private walk(root: Uint8Array, keyHash: Uint8Array, fresh: Map<string, Uint8Array>, at: NodePlace, what: string): Uint8Array | null {
    const key = nibblesOf(keyHash);
    let path: number[] = [];
    let ref: Uint8Array | Uint8Array[] = root;
    for (;;) {
      let node: BranchMPTNode | ExtensionMPTNode | LeafMPTNode;
      if (isRawMPTNode(ref)) {
        node = decodeRawMPTNode(ref);
      } else {
        const bytes = this.storedNode(bytesToHex(ref).slice(2), fresh);
        if (bytes === undefined) throw new RemoteError(`the fork's remote sent an incomplete proof of ${what} at block ${at.block.number}: node ${bytesToHex(ref)} is missing`);
        node = decodeMPTNode(bytes);
      }
      if (node instanceof BranchMPTNode) {
        if (path.length === key.length) return node.value();
        const nibble = key[path.length];
        for (const [i, child] of node.getChildren()) if (i !== nibble) this.placeChild(child, { ...at, path: [...path, i] });
        const next = node.getBranch(nibble);
        if (next === null) return null;
        path = [...path, nibble];
        ref = next;
      } else {
        const nibbles = node.key();
        const matches = nibbles.every((n, i) => key[path.length + i] === n);
        if (node instanceof LeafMPTNode) return matches && path.length + nibbles.length === key.length ? node.value() : null;
        if (!matches) {
          this.placeChild(node.value(), { ...at, path: [...path, ...nibbles] });
          return null;
        }
        path = [...path, ...nibbles];
        ref = node.value();
      }
    }
  }

  private placeChild(child: Uint8Array | Uint8Array[], place: NodePlace): void {
    if (!isRawMPTNode(child) && child.length === 32) this.place(child, place);
  }

  private place(hash: Uint8Array, place: NodePlace): void {
    if (this.places.size < CACHE_LIMITS.forkResolvedKeys * 4) this.places.set(bytesToHex(hash).slice(2), place);
  }

  /**
   * After a restart the places of nodes not fetched yet are known again from the records of what
   * was: each recorded account and slot is walked over the stored nodes once more.
   */
  private async rebuildPlaces(): Promise<void> {
    const none = new Map<string, Uint8Array>();
    for await (const record of this.store.fork.keys({ gte: Uint8Array.of(ACCOUNT), lt: Uint8Array.of(SLOT + 1) })) {
      const kind = record[0];
      if (kind !== ACCOUNT && kind !== SLOT) continue;
      const block = this.blockAt(BigInt(bytesToHex(record.subarray(1, 9))));
      if (block === undefined) continue;
      const address = record.subarray(9, 29);
      try {
        const leaf = this.walk(block.stateRoot, this.keccak(address), none, { block, path: [] }, 'a cached account');
        if (leaf === null) continue;
        const { storageRoot } = createAccountFromRLP(leaf);
        if (!equalsBytes(storageRoot, KECCAK256_RLP)) {
          this.place(storageRoot, { block, owner: address, path: [] });
          if (kind === SLOT) this.walk(storageRoot, this.keccak(record.subarray(29)), none, { block, owner: address, path: [] }, 'a cached slot');
        }
      } catch {
        // A record whose nodes a newer state no longer passes through places nothing.
      }
    }
  }
}
