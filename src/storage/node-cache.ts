/** What an entry takes beyond its value's bytes: its 64-character key, the Map slot, the Uint8Array. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * An approximate LRU at the cost of a Map lookup: two generations, each of at most half the byte
 * bound; a hit in the old one moves the entry to the young one, and when the young one is full the
 * old one is dropped.
 */
class Generations {
  young = new Map<string, Uint8Array>();
  old = new Map<string, Uint8Array>();
  private youngBytes = 0;
  private oldBytes = 0;

  /**
   * `onRotate` hears of each change of generations: `aged` when the young one became the old one,
   * `dropped` when the old one went alone.
   */
  constructor(
    private maxBytes: number,
    private readonly onRotate: (change: 'aged' | 'dropped') => void = () => {},
  ) {}

  get(key: string): Uint8Array | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const aged = this.old.get(key);
    if (aged !== undefined) this.set(key, aged);
    return aged;
  }

  has(key: string): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  set(key: string, value: Uint8Array): void {
    this.young.set(key, value);
    this.youngBytes += value.length + ENTRY_OVERHEAD_BYTES;
    if (this.youngBytes >= this.maxBytes / 2) this.rotate();
  }

  /** Forgets `key`; its bytes stay counted until its generation goes. */
  delete(key: string): void {
    if (!this.young.delete(key)) this.old.delete(key);
  }

  /** A new byte bound; under a smaller one, a generation past its half goes (the young one by becoming the old one). */
  resize(maxBytes: number): void {
    this.maxBytes = maxBytes;
    if (this.youngBytes >= maxBytes / 2) this.rotate();
    else if (this.oldBytes >= maxBytes / 2) {
      this.old = new Map();
      this.oldBytes = 0;
      this.onRotate('dropped');
    }
  }

  private rotate(): void {
    this.old = this.young;
    this.oldBytes = this.youngBytes;
    this.young = new Map();
    this.youngBytes = 0;
    this.onRotate('aged');
  }
}

/**
 * The trie node cache, for content-addressed values (never stale, only dead: no longer reachable
 * from a state anyone asks about). A segmented LRU: a node comes in on probation — landing with a
 * block, or read from disk — and is protected once it is asked for a second time while there.
 *
 * Most nodes a block writes are asked for exactly once more, by the next block on its way to replace
 * them (the upper nodes of every trie a run of blocks writes into), and never again. On probation
 * they leave in the order they came, without pushing out the nodes that reads keep coming back to;
 * a single bound over both held ~14 MB of them after a peerbench run, for a live state of a few
 * hundred kilobytes. (@ethereumjs's own per-trie LRU would allocate its whole capacity up front for
 * every state view we open.)
 */
export class NodeCache {
  private readonly probation: Generations;
  private readonly protected: Generations;
  /** Probation entries asked for once since they came in, by generation. */
  private askedYoung = new Set<string>();
  private askedOld = new Set<string>();

  constructor(
    private readonly probationBytes: number,
    protectedBytes: number,
  ) {
    this.probation = new Generations(probationBytes, (change) => {
      this.askedOld = change === 'aged' ? this.askedYoung : new Set();
      if (change === 'aged') this.askedYoung = new Set();
    });
    this.protected = new Generations(protectedBytes);
  }

  get(key: string): Uint8Array | undefined {
    const hot = this.protected.get(key);
    if (hot !== undefined) return hot;
    const young = this.probation.young.get(key);
    if (young !== undefined) return this.asked(key, young, this.askedYoung);
    const old = this.probation.old.get(key);
    if (old !== undefined) return this.asked(key, old, this.askedOld);
    return undefined;
  }

  /** A node that landed with a block: nobody has asked for it yet. */
  landed(key: string, value: Uint8Array): void {
    if (this.protected.has(key) || this.probation.has(key)) return;
    this.probation.set(key, value);
  }

  /** A node read from disk: asked for once. */
  read(key: string, value: Uint8Array): void {
    this.askedYoung.add(key);
    this.probation.set(key, value);
  }

  /** Lets probation take up to `bytes` until the returned function is called (then back to its bound, what passes it dropped). */
  widenProbation(bytes: number): () => void {
    this.probation.resize(Math.max(bytes, this.probationBytes));
    return () => this.probation.resize(this.probationBytes);
  }

  private asked(key: string, value: Uint8Array, asked: Set<string>): Uint8Array {
    if (!asked.has(key)) {
      asked.add(key);
      return value;
    }
    asked.delete(key);
    this.probation.delete(key);
    this.protected.set(key, value);
    return value;
  }
}
