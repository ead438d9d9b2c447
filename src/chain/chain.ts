import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { isDeepStrictEqual } from 'node:util';
import { bytesToHex, equalsBytes, utf8ToBytes, bytesToUtf8 } from '@ethereumjs/util';
import type { BatchOp, Database } from '../storage/database.js';
import { DataDirRefused } from '../storage/storage-fault.js';
import { BlockStore } from './block-store.js';
import { ForkCommons } from './fork-commons.js';
import { commonFromGenesis, genesisBlock, writeGenesisState, type GethGenesis, type NodeGenesis } from './genesis.js';
import { headProblem } from './head-check.js';
import { layoutOp, migrateLayout } from './layout-migration.js';
import type { StoredReceipt } from './receipts.js';
import { StateStore } from '../state/state-store.js';

export class GenesisMismatchError extends Error {}

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

/**
 * The canonical chain: its blocks, receipts and state in one LevelDB, and its head.
 * A new block lands in one atomic batch (state nodes, block, receipts, indexes, head and whatever
 * the caller adds) before the head moves and listeners hear of it.
 */
export class Chain {
  private headBlock: Block;
  private readonly listeners: BlockListener[] = [];
  /** The forkchoice's safe and finalized blocks of an imported chain; on the dev chain both follow the head. */
  private forkchoice: { safe?: Block; finalized?: Block } = {};

  private constructor(
    readonly commons: ForkCommons,
    readonly blocks: BlockStore,
    readonly state: StateStore,
    readonly genesis: Block,
    /** the geth-format genesis the chain was opened with */
    readonly spec: GethGenesis,
    head: Block,
  ) {
    this.headBlock = head;
  }

  /**
   * Opens the chain in `db`, writing the genesis into an empty one; refuses a db made from another
   * genesis (GenesisMismatchError), and one holding something else or a damaged head (DataDirRefused).
   * A data dir of an older storage layout is migrated first; `progress` hears of it.
   */
  static async open(db: Database, genesisSpec: GethGenesis, progress?: (message: string) => void): Promise<Chain> {
    await db.open();
    const commons = new ForkCommons(commonFromGenesis(genesisSpec));
    const blocks = new BlockStore(db, (header) => commons.at(header));
    const genesisCommon = commons.at({ number: 0n, timestamp: BigInt(genesisSpec.timestamp ?? 0) });
    const state = await StateStore.open(db.trie, genesisCommon);
    const specBytes = utf8ToBytes(JSON.stringify(genesisSpec));
    const storedGenesis = await blocks.meta('genesis');
    const storedSpec = await blocks.meta('genesisSpec');
    if (storedGenesis !== undefined && storedSpec !== undefined && equalsBytes(storedSpec, specBytes)) {
      // The data dir was made from this very spec: its genesis is the one stored, not worth building again.
      const genesis = await blocks.block(storedGenesis);
      if (genesis === undefined) throw new DataDirRefused(`its chain is damaged: the genesis block ${bytesToHex(storedGenesis)} is missing`);
      return Chain.resume(db, { commons, blocks, state, genesis, genesisSpec }, progress);
    }
    const root = await writeGenesisState(genesisSpec, state.writer);
    const genesis = genesisBlock(genesisSpec, genesisCommon, root);
    if (storedGenesis === undefined) {
      for await (const key of db.root.keys({ limit: 1 })) {
        throw new DataDirRefused(`it holds a database but no chain (no genesis record; its first key is ${bytesToHex(key as Uint8Array)})`);
      }
      const ops = [
        ...state.drain(),
        ...blocks.blockOps(genesis, [], genesis.header.difficulty),
        blocks.metaOp('genesis', genesis.hash()),
        blocks.metaOp('head', genesis.hash()),
        blocks.metaOp('genesisSpec', specBytes),
        layoutOp(db),
      ];
      await blocks.write(ops);
      state.landed();
      return new Chain(commons, blocks, state, genesis, genesisSpec, genesis);
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
    const chain = new Chain(commons, blocks, state, genesis, genesisSpec, head);
    const stored = async (name: string) => {
      const hash = await blocks.meta(name);
      return hash === undefined ? undefined : blocks.block(hash);
    };
    chain.forkchoice = { safe: await stored('safe'), finalized: await stored('finalized') };
    return chain;
  }

  /** The genesis spec a data dir was created with, so a restart without flags resumes that chain. */
  static async storedGenesisSpec(db: Database): Promise<NodeGenesis | undefined> {
    const bytes = await db.meta.get(utf8ToBytes('genesisSpec'));
    return bytes === undefined ? undefined : JSON.parse(bytesToUtf8(bytes));
  }

  head(): Block {
    return this.headBlock;
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
    await this.blocks.write([this.blocks.metaOp('safe', safe.hash()), this.blocks.metaOp('finalized', finalized.hash())]);
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
    return (await this.blocks.totalDifficulty(block.hash())) ?? block.header.difficulty;
  }

  /**
   * Makes `block` the new head. Its state must already be in the state store's buffer; `ops` (the
   * pool's removals, say) land in the same batch, and `landed` runs as the head moves, before any
   * listener or reader can see the new head.
   */
  async append(block: Block, receipts: StoredReceipt[], { ops = [], landed }: { ops?: BatchOp[]; landed?: () => void } = {}): Promise<void> {
    const parentTd = await this.totalDifficulty(this.headBlock);
    const batch = [
      ...this.state.drain(),
      ...this.blocks.blockOps(block, receipts, parentTd + block.header.difficulty),
      this.blocks.metaOp('head', block.hash()),
      ...ops,
    ];
    await this.blocks.write(batch);
    this.state.landed();
    this.blocks.remember(block);
    this.headBlock = block;
    landed?.();
    for (const listener of this.listeners) listener(block);
  }

  onBlock(listener: BlockListener): void {
    this.listeners.push(listener);
  }
}
