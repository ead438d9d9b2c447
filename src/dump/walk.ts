// The accounts of a state, listed by walking its trie: each leaf's key is the hash of an address (of a slot, in a
// storage trie), turned back into the address by the preimages the node keeps (state/preimages.ts).
import { createMPT, LeafMPTNode, type MerklePatriciaTrie } from '@ethereumjs/mpt';
import { bytesToHex, type BatchDBOp, type DB, ValueEncoding } from '@ethereumjs/util';
import type { Section } from '../storage/database.js';

/**
 * A visited-set that keeps nothing: a trie has no cycles, and remembering each node's hash (as the
 * library's walk does) would hold ~100 bytes per node of a walk over millions of them.
 */
const FORGETFUL = { has: () => false, add: () => FORGETFUL } as unknown as Set<string>;

/** The trie's nodes as the node itself wrote them: never a fork's remote, and a node it lacks counted. */
class OwnNodes implements DB<string, Uint8Array> {
  missing = 0;

  constructor(private readonly section: Section) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    const node = this.section.getSync(Buffer.from(key, 'hex'));
    if (node === undefined) this.missing++;
    return node;
  }

  async put(): Promise<void> {
    throw new Error('a trie walk writes nothing');
  }

  async del(): Promise<void> {}

  async batch(_ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    throw new Error('a trie walk writes nothing');
  }

  shallowCopy(): DB<string, Uint8Array> {
    return this;
  }

  async open(): Promise<void> {}
}

/** A leaf of a trie: the hash its key has, and its value (an account's RLP, a slot's RLP-encoded value). */
export interface Leaf {
  hash: Uint8Array;
  value: Uint8Array;
}

export class TrieWalker {
  private readonly nodes: OwnNodes;

  private constructor(
    nodes: OwnNodes,
    private readonly trie: MerklePatriciaTrie,
  ) {
    this.nodes = nodes;
  }

  static async over(section: Section): Promise<TrieWalker> {
    const nodes = new OwnNodes(section);
    return new TrieWalker(nodes, await createMPT({ db: nodes, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, cacheSize: 0 }));
  }

  /** How many nodes the walks so far found missing (a fork's, left on its remote; else a damaged data dir). */
  get missing(): number {
    return this.nodes.missing;
  }

  /** Every leaf under `root`, in key order (depth first); subtrees whose nodes are missing are passed over. */
  async *leaves(root: Uint8Array): AsyncGenerator<Leaf> {
    const isLeaf = async (node: unknown) => node instanceof LeafMPTNode;
    for await (const { node, currentKey } of this.trie.walkTrieIterable(root, [], undefined, isLeaf, FORGETFUL)) {
      const leaf = node as LeafMPTNode;
      yield { hash: packNibbles([...currentKey, ...leaf.key()]), value: leaf.value()! };
    }
  }
}

function packNibbles(nibbles: number[]): Uint8Array {
  if (nibbles.length !== 64) throw new Error(`a state trie leaf at ${nibbles.length} nibbles, not 64: ${bytesToHex(Uint8Array.from(nibbles))}`);
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!;
  return bytes;
}
