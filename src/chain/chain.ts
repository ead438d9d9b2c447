import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { isDeepStrictEqual } from 'node:util';
import { bytesToHex, equalsBytes, utf8ToBytes, bytesToUtf8 } from '@ethereumjs/util';
import type { BatchOp, Database, Section } from '../storage/database.js';
import { numberKey } from '../storage/layout.js';
import { DataDirRefused } from '../storage/storage-fault.js';
import { BlockStore } from './block-store.js';
import { ForkCommons } from './fork-commons.js';
import { commonFromGenesis, genesisBlock, writeGenesisState, type GethGenesis, type NodeGenesis } from './genesis.js';
import { headProblem } from './head-check.js';
import { layoutOp, migrateLayout } from './layout-migration.js';
import type { StoredReceipt } from './receipts.js';
import { StateStore } from '../state/state-store.js';
import type { ChainFork } from '../fork/chain-fork.js';

export class GenesisMismatchError extends Error {}

/** A write to a chain that `anvil_reset` replaced: whoever raced the reset must ask again. */
export class ChainReplacedError extends Error {
  constructor() {
    super('the chain was reset while this request ran; send it again');
    this.name = 'ChainReplacedError';
  }
}

/** A genesis spec as the data dir keeps it. */
const specBytes = (genesisSpec: GethGenesis): Uint8Array => utf8ToBytes(JSON.stringify(genesisSpec));

/** How the stored genesis spec's chain config differs from `given`'s, in words; undefined when it does not. */
function chainConfigMismatch(storedSpec: Uint8Array | undefined, given: GethGenesis): { stored: string; given: string } | undefined {
  if (storedSpec === undefined) return undefined;
  const normal = (config: unknown) => JSON.parse(JSON.stringify(config ?? {})) as Record<string, unknown>;
  const spec: GethGenesis = JSON.parse(bytesToUtf8(storedSpec));
  const stored = normal(spec.config);
  const wanted = normal(given.config);
  if (isDeepStrictEqual(stored, wanted)) return undefined;
  if (stored.chainId !== wanted.chainId) return { stored: `chain id ${stored.chainId}`, given: `chain id ${wanted.chainId}` };
  const keys = [...new Set([...Object.keys(stored), ...Object.keys(wanted)])].filter((k) => !isDeepStrictEqual(stored[k], wanted[k]));
  return { stored: `another chain config (${keys.join(', ')})`, given: `${keys.map((k) => `${k} ${JSON.stringify(wanted[k]) ?? 'unset'}`).join(', ')}` };
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

  private constructor(
    readonly commons: ForkCommons,
    readonly blocks: BlockStore,
    readonly state: StateStore,
    readonly genesis: Block,
    /** the geth-format genesis the chain was opened with */
    readonly spec: GethGenesis,
    head: Block,
    headTd: bigint,
    /** set when the chain forks a remote one at its genesis (then the fork block) */
    readonly fork?: ChainFork,
  ) {
    this.headBlock = head;
    this.headTd = headTd;
  }

  /**
   * Opens a forked chain in `db`: the remote's fork block `base` stands as its genesis (its state is
   * the remote's, read lazily through `stores`). A data dir already holding this fork resumes it;
   * one holding another chain is refused (GenesisMismatchError).
   */
  static async openFork(db: Database, genesisSpec: GethGenesis, commons: ForkCommons, fork: ChainFork, replace?: BatchOp[]): Promise<Chain> {
    await db.open();
    const { blocks, state, base } = fork;
    const storedGenesis = replace === undefined ? await blocks.meta('genesis') : undefined;
    if (storedGenesis !== undefined) {
      if (!equalsBytes(storedGenesis, base.hash())) {
        throw new GenesisMismatchError(
          `the data dir holds a chain with genesis ${bytesToHex(storedGenesis)}, not a fork at block ${base.header.number} (${bytesToHex(base.hash())}); ` +
            'start with the flags it was made with, or use another --data-dir',
        );
      }
      const headHash = await blocks.meta('head');
      const head = headHash === undefined ? undefined : await blocks.block(headHash);
      if (head === undefined) throw new DataDirRefused('its chain is damaged: the head block is missing');
      const chain = new Chain(commons, blocks, state, base, genesisSpec, head, (await blocks.totalDifficulty(head.hash())) ?? head.header.difficulty, fork);
      for await (const [hash, root] of blocks.stateEdits()) chain.editedStates.set(bytesToHex(hash), root);
      return chain;
    }
    for await (const key of replace === undefined ? db.root.keys({ limit: 1 }) : []) {
      // The fork's own cache may be there already (key space `k…`): it is written before the chain.
      const isForkCache = (key as Uint8Array)[0] === 0x21 && (key as Uint8Array)[1] === 0x6b;
      if (!isForkCache) throw new DataDirRefused(`it holds a database but no chain (no genesis record; its first key is ${bytesToHex(key as Uint8Array)})`);
    }
    await blocks.write([...(replace ?? []), ...Chain.forkGenesisOps(db, blocks, base, genesisSpec)]);
    state.landed(undefined, base.header.stateRoot);
    return new Chain(commons, blocks, state, base, genesisSpec, base, base.header.difficulty, fork);
  }

  /** What makes a fork's chain in a data dir: the fork block as genesis and head; its transactions' records stay the remote's. */
  private static forkGenesisOps(db: Database, blocks: BlockStore, base: Block, genesisSpec: GethGenesis): BatchOp[] {
    const hash = base.hash();
    return [
      { type: 'put', sublevel: db.blocks, key: hash, value: base.serialize() },
      { type: 'put', sublevel: db.canonical, key: numberKey(base.header.number), value: hash },
      blocks.metaOp('genesis', hash),
      blocks.metaOp('head', hash),
      blocks.metaOp('genesisSpec', specBytes(genesisSpec)),
      layoutOp(db),
    ];
  }

  /**
   * The state root a proof at `block` proves: its state's, but for a fork block, whose state the
   * dev accounts' balances edit at start, the remote's as its header commits to it — so a proof
   * at the fork block verifies against that block, as the remote's own would.
   */
  proofRootOf(block: Block): Uint8Array {
    return this.fork !== undefined && equalsBytes(block.hash(), this.genesis.hash()) ? block.header.stateRoot : this.stateRootOf(block);
  }

  /**
   * Opens the chain in `db`, writing the genesis into an empty one; refuses a db made from another
   * genesis (GenesisMismatchError), and one holding something else or a damaged head (DataDirRefused).
   * A data dir of an older storage layout is migrated first; `progress` hears of it.
   */
  static async open(db: Database, genesisSpec: GethGenesis, progress?: (message: string) => void): Promise<Chain> {
    await db.open();
    const { commons, blocks, state } = await Chain.storesOf(db, genesisSpec);
    const storedGenesis = await blocks.meta('genesis');
    const storedSpec = await blocks.meta('genesisSpec');
    if (storedGenesis !== undefined && storedSpec !== undefined && equalsBytes(storedSpec, specBytes(genesisSpec))) {
      // The data dir was made from this very spec: its genesis is the one stored, not worth building again.
      const genesis = await blocks.block(storedGenesis);
      if (genesis === undefined) throw new DataDirRefused(`its chain is damaged: the genesis block ${bytesToHex(storedGenesis)} is missing`);
      return Chain.resume(db, { commons, blocks, state, genesis, genesisSpec }, progress);
    }
    const genesis = await Chain.buildGenesis(commons, state, genesisSpec);
    if (storedGenesis === undefined) {
      for await (const key of db.root.keys({ limit: 1 })) {
        throw new DataDirRefused(`it holds a database but no chain (no genesis record; its first key is ${bytesToHex(key as Uint8Array)})`);
      }
      await blocks.write(Chain.genesisOps(db, state, blocks, genesis, genesisSpec));
      state.landed(undefined, genesis.header.stateRoot);
      return new Chain(commons, blocks, state, genesis, genesisSpec, genesis, genesis.header.difficulty);
    }
    state.discard();
    if (!equalsBytes(storedGenesis, genesis.hash())) {
      throw new GenesisMismatchError(
        `the data dir holds a chain with genesis ${bytesToHex(storedGenesis)}, but the configured genesis is ${bytesToHex(genesis.hash())}; ` +
          'start with the same genesis flags, or use another --data-dir',
      );
    }
    // The genesis block does not commit to the chain config (chain id, fork schedule): compare that too.
    const configMismatch = chainConfigMismatch(storedSpec, genesisSpec);
    if (configMismatch !== undefined) {
      throw new GenesisMismatchError(
        `the data dir holds a chain with genesis ${bytesToHex(storedGenesis)} and ${configMismatch.stored}, but the configured genesis has ${configMismatch.given}; ` +
          'start with the same genesis flags, or use another --data-dir',
      );
    }
    return Chain.resume(db, { commons, blocks, state, genesis, genesisSpec }, progress);
  }

  /** Opens the chain a data dir holds, its genesis known to match: migrated to the current layout, its head checked. */
  private static async resume(
    db: Database,
    { commons, blocks, state, genesis, genesisSpec }: { commons: ForkCommons; blocks: BlockStore; state: StateStore; genesis: Block; genesisSpec: GethGenesis },
    progress?: (message: string) => void,
  ): Promise<Chain> {
    await migrateLayout(db, blocks, progress);
    const headHash = await blocks.meta('head');
    const head = headHash === undefined ? undefined : await blocks.block(headHash);
    if (head === undefined) throw new DataDirRefused(`its chain is damaged: ${headHash === undefined ? 'the head record is missing' : `the head block ${bytesToHex(headHash)} is missing`}`);
    const problem = await headProblem(db, head);
    if (problem !== undefined) throw new DataDirRefused(`its chain is damaged: ${problem}`);
    const chain = new Chain(commons, blocks, state, genesis, genesisSpec, head, (await blocks.totalDifficulty(head.hash())) ?? head.header.difficulty);
    const stored = async (name: string) => {
      const hash = await blocks.meta(name);
      return hash === undefined ? undefined : blocks.block(hash);
    };
    chain.forkchoice = { safe: await stored('safe'), finalized: await stored('finalized') };
    for await (const [hash, root] of blocks.stateEdits()) chain.editedStates.set(bytesToHex(hash), root);
    return chain;
  }

  /**
   * Replaces the chain in `db` with a new one from `genesisSpec`, emptying `alsoClear` too, in one
   * atomic batch: a crash leaves the old chain or the new one, never a mix. Trie nodes stay (they
   * are content-addressed; a new genesis often shares them).
   */
  static async replace(db: Database, genesisSpec: GethGenesis, alsoClear: Section[]): Promise<Chain> {
    const { commons, blocks, state } = await Chain.storesOf(db, genesisSpec);
    const genesis = await Chain.buildGenesis(commons, state, genesisSpec);
    try {
      await blocks.write([...(await blocks.clearOps(alsoClear)), ...Chain.genesisOps(db, state, blocks, genesis, genesisSpec)]);
    } catch (error) {
      state.discard();
      throw error;
    }
    state.landed(undefined, genesis.header.stateRoot);
    return new Chain(commons, blocks, state, genesis, genesisSpec, genesis, genesis.header.difficulty);
  }

  /** The chain's fork rules, block store and state store over `db`. */
  private static async storesOf(db: Database, genesisSpec: GethGenesis) {
    const commons = new ForkCommons(commonFromGenesis(genesisSpec));
    const blocks = new BlockStore(db, (header) => commons.at(header));
    const state = await StateStore.open(db.trie, db.preimages, Chain.genesisCommon(commons, genesisSpec));
    return { commons, blocks, state };
  }

  private static genesisCommon(commons: ForkCommons, genesisSpec: GethGenesis): Common {
    return commons.at({ number: 0n, timestamp: BigInt(genesisSpec.timestamp ?? 0) });
  }

  /** The genesis block of `genesisSpec`, its state written into the state store's buffer. */
  private static async buildGenesis(commons: ForkCommons, state: StateStore, genesisSpec: GethGenesis): Promise<Block> {
    const root = await writeGenesisState(genesisSpec, state.writer);
    return genesisBlock(genesisSpec, Chain.genesisCommon(commons, genesisSpec), root);
  }

  /** What makes a chain of `genesis` in an empty data dir (or one cleared in the same batch), in the current layout. */
  private static genesisOps(db: Database, state: StateStore, blocks: BlockStore, genesis: Block, genesisSpec: GethGenesis): BatchOp[] {
    return [
      ...state.drain(),
      ...blocks.blockOps(genesis, [], genesis.header.difficulty),
      blocks.metaOp('genesis', genesis.hash()),
      blocks.metaOp('head', genesis.hash()),
      blocks.metaOp('genesisSpec', specBytes(genesisSpec)),
      layoutOp(db),
    ];
  }

  /** The genesis spec a data dir was created with, so a restart without flags resumes that chain. */
  static async storedGenesisSpec(db: Database): Promise<NodeGenesis | undefined> {
    const bytes = await db.meta.get(utf8ToBytes('genesisSpec'));
    return bytes === undefined ? undefined : JSON.parse(bytesToUtf8(bytes));
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

  async blockByNumber(number: bigint): Promise<Block | undefined> {
    if (number > this.headBlock.header.number) return undefined;
    if (number === this.headBlock.header.number) return this.headBlock;
    const hash = await this.blocks.canonicalHash(number);
    return hash === undefined ? undefined : this.blocks.block(hash);
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
    await this.write([...batch, ...ops]);
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
