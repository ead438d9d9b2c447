import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { BatchOp, Database, Section } from '../storage/database.js';
import type { BlockStore } from './block-store.js';
import { openChain, openForkedChain, replaceChain, storedGenesisSpec, type ChainParts } from './chain-opening.js';
import type { ForkCommons } from './fork-commons.js';
import type { GethGenesis, NodeGenesis } from './genesis.js';
import type { StoredReceipt } from './receipts.js';
import type { StateStore } from '../state/state-store.js';
import type { ChainFork } from '../fork/chain-fork.js';

export { GenesisMismatchError } from './chain-opening.js';

/** A write to a chain that `anvil_reset` replaced: whoever raced the reset must ask again. */
export class ChainReplacedError extends Error {
  constructor() {
    super('the chain was reset while this request ran; send it again');
    this.name = 'ChainReplacedError';
  }
}

type BlockListener = (block: Block) => void;
type RewindListener = (head: Block) => void;

/** A block to land with its receipts, as {@link Chain.appendAll} takes them. */
export interface NewBlock {
  block: Block;
  receipts: StoredReceipt[];
}

/** What lands with a block batch: more operations (the pool's), and what must happen as the head moves. */
export interface LandingOptions {
  ops?: BatchOp[];
  landed?: () => void;
}

/**
 * The canonical chain: its blocks, receipts and state in one LevelDB, and its head.
 * A new block lands in one atomic batch (state nodes, block, receipts, indexes, head and whatever
 * the caller adds) before the head moves and listeners hear of it.
 */
export class Chain {
  private headBlock: Block;
  private headTd: bigint;
  private readonly listeners: BlockListener[] = [];
  private readonly rewindListeners: RewindListener[] = [];
  /** The forkchoice's safe and finalized blocks of an imported chain; on the dev chain both follow the head. */
  private forkchoice: { safe?: Block; finalized?: Block } = {};
  /** block hash → the state root its state edits left (see {@link commitHeadState}) */
  private readonly editedStates = new Map<string, Uint8Array>();
  private replaced = false;
  /** A rewind is taking blocks off the chain: until the head moves, the canonical index may lack blocks below it. */
  private rewinding = false;

  readonly commons: ForkCommons;
  readonly blocks: BlockStore;
  readonly state: StateStore;
  readonly genesis: Block;
  /** the geth-format genesis the chain was opened with */
  readonly spec: GethGenesis;
  /** set when the chain forks a remote one at its genesis (then the fork block) */
  readonly fork?: ChainFork;

  private constructor(parts: ChainParts) {
    ({ commons: this.commons, blocks: this.blocks, state: this.state, genesis: this.genesis, spec: this.spec, fork: this.fork } = parts);
    this.headBlock = parts.head;
    this.headTd = parts.headTd;
    this.forkchoice = parts.forkchoice ?? {};
    for (const [hash, root] of parts.editedStates ?? []) this.editedStates.set(hash, root);
  }

  /**
   * The state root a proof at `block` proves: its state's, but for a fork block, whose state the
   * dev accounts' balances edit at start, the remote's as its header commits to it — so a proof
   * at the fork block verifies against that block, as the remote's own would.
   */
  proofRootOf(block: Block): Uint8Array {
    return this.fork !== undefined && equalsBytes(block.hash(), this.genesis.hash()) ? block.header.stateRoot : this.stateRootOf(block);
  }

  /** Opens the chain in `db` (see {@link openChain}). */
  static async open(db: Database, genesisSpec: GethGenesis, progress?: (message: string) => void): Promise<Chain> {
    return new Chain(await openChain(db, genesisSpec, progress));
  }

  /** Opens a forked chain in `db` (see {@link openForkedChain}). */
  static async openFork(db: Database, genesisSpec: GethGenesis, commons: ForkCommons, fork: ChainFork, replace?: BatchOp[]): Promise<Chain> {
    return new Chain(await openForkedChain(db, genesisSpec, commons, fork, replace));
  }

  /** Replaces the chain in `db` with a new one (see {@link replaceChain}). */
  static async replace(db: Database, genesisSpec: GethGenesis, alsoClear: Section[]): Promise<Chain> {
    return new Chain(await replaceChain(db, genesisSpec, alsoClear));
  }

  /** The genesis spec a data dir was created with, so a restart without flags resumes that chain. */
  static storedGenesisSpec(db: Database): Promise<NodeGenesis | undefined> {
    return storedGenesisSpec(db);
  }

  head(): Block {
    return this.headBlock;
  }

  /**
   * The state after `block`: its header's state root, or the root state edits left on top of it
   * (anvil_setBalance & co. edit the head's state without a block; the next block builds on it).
   */
  stateRootOf(block: Block): Uint8Array {
    return this.editedStates.get(bytesToHex(block.hash())) ?? block.header.stateRoot;
  }

  /** The state the next block builds on. */
  headStateRoot(): Uint8Array {
    return this.stateRootOf(this.headBlock);
  }

  /** The fork rules of the block after the head (its timestamp is at least one second later). */
  nextCommon(): Common {
    const { number, timestamp } = this.headBlock.header;
    return this.commons.at({ number: number + 1n, timestamp: timestamp + 1n });
  }

  /** The `safe` block: the imported forkchoice's, else the head. */
  safe(): Block {
    return this.forkchoice.safe ?? this.headBlock;
  }

  /** The `finalized` block: the imported forkchoice's, else the head. */
  finalized(): Block {
    return this.forkchoice.finalized ?? this.headBlock;
  }

  /** Records a forkchoice (engine_forkchoiceUpdated's safe and finalized blocks), as an import brings one. */
  async setForkchoice(safe: Block, finalized: Block): Promise<void> {
    await this.write([this.blocks.metaOp('safe', safe.hash()), this.blocks.metaOp('finalized', finalized.hash())]);
    this.forkchoice = { safe, finalized };
  }

  /**
   * The canonical block at `number`. Every number up to the head's has one: a canonical index
   * entry that is missing, names no stored block or a block of another number is damage (below a
   * fork block, the remote's history answers, which is no damage of the data dir's).
   */
  async blockByNumber(number: bigint): Promise<Block | undefined> {
    if (number > this.headBlock.header.number || number < 0n) return undefined;
    if (number === this.headBlock.header.number) return this.headBlock;
    const hash = await this.blocks.canonicalHash(number);
    const block = hash === undefined ? undefined : await this.blocks.block(hash);
    if (block !== undefined && block.header.number === number) return block;
    if (this.replaced) throw new ChainReplacedError();
    const remote = this.fork !== undefined && number < this.fork.base.header.number;
    if (remote || this.rewinding || number > this.headBlock.header.number) return undefined;
    const problem = hash === undefined ? 'is missing' : block === undefined ? `names ${bytesToHex(hash)}, which is not stored` : `names block ${block.header.number}`;
    throw this.blocks.damaged(`the canonical index entry of block ${number}`, `${problem}, though the head is block ${this.headBlock.header.number}`);
  }

  /** A block by hash, canonical or not. */
  async blockByHash(hash: Uint8Array): Promise<Block | undefined> {
    return this.blocks.block(hash);
  }

  async totalDifficulty(block: Block): Promise<bigint> {
    if (equalsBytes(block.hash(), this.headBlock.hash())) return this.headTd;
    return (await this.blocks.totalDifficulty(block.hash())) ?? block.header.difficulty;
  }

  /**
   * Makes `block` the new head. Its state must already be in the state store's buffer; `ops` (the
   * pool's removals, say) land in the same batch, and `landed` runs as the head moves, before any
   * listener or reader can see the new head.
   */
  append(block: Block, receipts: StoredReceipt[], options: LandingOptions = {}): Promise<void> {
    return this.appendAll([{ block, receipts }], options);
  }

  /** Lands a run of blocks, each the child of the one before, the first the head's, in one atomic batch (as {@link append}). */
  async appendAll(run: readonly NewBlock[], { ops = [], landed }: LandingOptions = {}): Promise<void> {
    if (run.length === 0) return;
    const parentRoot = this.headStateRoot();
    const batch = this.state.drain();
    let td = this.headTd;
    for (const { block, receipts } of run) {
      td += block.header.difficulty;
      batch.push(...this.blocks.blockOps(block, receipts, td));
    }
    const head = run[run.length - 1].block;
    batch.push(this.blocks.metaOp('head', head.hash()), ...ops);
    await this.write(batch);
    this.state.landed(parentRoot, head.header.stateRoot, run.length);
    for (const { block } of run) this.blocks.remember(block);
    this.headBlock = head;
    this.headTd = td;
    landed?.();
    for (const { block } of run) for (const listener of this.listeners) listener(block);
  }

  /**
   * Records `stateRoot` as the head's state: the root its state edits left, whose trie nodes are in
   * the state store's buffer. The nodes and the record land in one batch, so a crash never leaves a
   * recorded root without its nodes.
   */
  async commitHeadState(stateRoot: Uint8Array): Promise<void> {
    const head = this.headBlock;
    const parentRoot = this.headStateRoot();
    const edited = equalsBytes(stateRoot, head.header.stateRoot) ? undefined : stateRoot;
    await this.write([...this.state.drain(), this.blocks.stateEditOp(head.hash(), edited)]);
    this.state.landed(parentRoot, stateRoot);
    this.setEditedState(head, edited);
  }

  /**
   * Writes the trie nodes and preimages a long state edit has made so far (anvil_loadState of a large
   * dump), so they need not wait in memory for its end. Nodes are content-addressed and no recorded root
   * names these until {@link commitHeadState} does: an edit that fails later leaves them unread.
   */
  async spillState(): Promise<void> {
    await this.write(this.state.drain());
    this.state.spilled();
  }

  /**
   * Rewinds the head to `target`, an ancestor of the head (or the head), whose state becomes
   * `stateRoot`: the blocks after it leave the chain with their receipts and indexes, in one batch
   * with `ops`. Caches forget them; rewind listeners hear of the new head.
   */
  async rewind(target: Block, stateRoot: Uint8Array, { ops = [], landed }: LandingOptions = {}): Promise<void> {
    const dropped: Block[] = [];
    for (let block = this.headBlock; block.header.number > target.header.number; ) {
      dropped.push(block);
      const parent = await this.blocks.block(block.header.parentHash);
      if (parent === undefined) throw new Error(`block ${block.header.number} has no stored parent`);
      block = parent;
    }
    const edited = equalsBytes(stateRoot, target.header.stateRoot) ? undefined : stateRoot;
    const batch: BatchOp[] = [];
    for (const block of dropped) batch.push(...(await this.blocks.dropOps(block)));
    batch.push(this.blocks.stateEditOp(target.hash(), edited), this.blocks.metaOp('head', target.hash()));
    const forkchoiceGone = [this.forkchoice.safe, this.forkchoice.finalized].some((block) => block !== undefined && block.header.number > target.header.number);
    if (forkchoiceGone) batch.push(this.blocks.metaDelOp('safe'), this.blocks.metaDelOp('finalized'));
    this.rewinding = true;
    try {
      await this.write([...batch, ...ops]);
    } finally {
      this.rewinding = false;
    }
    for (const block of dropped) {
      this.blocks.forget(block.hash());
      this.editedStates.delete(bytesToHex(block.hash()));
    }
    if (forkchoiceGone) this.forkchoice = {};
    this.setEditedState(target, edited);
    this.headBlock = target;
    this.headTd = await this.totalDifficultyStored(target);
    landed?.();
    for (const listener of this.rewindListeners) listener(target);
  }

  /** Stops every write: the chain was replaced (anvil_reset) and a new Chain serves its data dir. */
  retire(): void {
    this.replaced = true;
  }

  onBlock(listener: BlockListener): void {
    this.listeners.push(listener);
  }

  /** Hears of every rewind (evm_revert), with the new head. */
  onRewind(listener: RewindListener): void {
    this.rewindListeners.push(listener);
  }

  private async totalDifficultyStored(block: Block): Promise<bigint> {
    return (await this.blocks.totalDifficulty(block.hash())) ?? block.header.difficulty;
  }

  private setEditedState(block: Block, stateRoot: Uint8Array | undefined): void {
    if (stateRoot === undefined) this.editedStates.delete(bytesToHex(block.hash()));
    else this.editedStates.set(bytesToHex(block.hash()), stateRoot);
  }

  private async write(ops: BatchOp[]): Promise<void> {
    if (this.replaced) throw new ChainReplacedError();
    await this.blocks.write(ops);
  }
}
