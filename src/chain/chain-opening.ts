// Opening a chain in a data dir: a new one from its genesis, one the data dir holds (migrated to the
// current layout, its head checked), a fork of a remote chain, or a replacement (anvil_reset) — each
// answering the parts a Chain is made of, or refusing a data dir made for another chain.
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { isDeepStrictEqual } from 'node:util';
import { bigIntToUnpaddedBytes, bytesToHex, bytesToUtf8, equalsBytes, utf8ToBytes } from '@ethereumjs/util';
import type { ChainFork } from '../fork/chain-fork.js';
import { StateStore } from '../state/state-store.js';
import type { BatchOp, Database, Section } from '../storage/database.js';
import { encodeStoredBlock, numberKey } from '../storage/layout.js';
import { DataDirRefused } from '../storage/storage-fault.js';
import { BlockStore } from './block-store.js';
import { ForkCommons } from './fork-commons.js';
import { commonFromGenesis, genesisBlock, writeGenesisState, type GethGenesis, type NodeGenesis } from './genesis.js';
import { headProblem } from './head-check.js';
import { layoutOp, migrateLayout } from './layout-migration.js';

export class GenesisMismatchError extends Error {}

/** What a Chain is made of when it opens. */
export interface ChainParts {
  commons: ForkCommons;
  blocks: BlockStore;
  state: StateStore;
  genesis: Block;
  spec: GethGenesis;
  head: Block;
  headTd: bigint;
  fork?: ChainFork;
  forkchoice?: { safe?: Block; finalized?: Block };
  /** block hash (0x-hex) → the state root its state edits left */
  editedStates?: [string, Uint8Array][];
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

/** The state roots state edits left on blocks, as the data dir records them. */
async function editedStatesOf(blocks: BlockStore): Promise<[string, Uint8Array][]> {
  const edited: [string, Uint8Array][] = [];
  for await (const [hash, root] of blocks.stateEdits()) edited.push([bytesToHex(hash), root]);
  return edited;
}

/**
 * Opens a forked chain in `db`: the remote's fork block `base` stands as its genesis (its state is
 * the remote's, read lazily through `stores`). A data dir already holding this fork resumes it;
 * one holding another chain is refused (GenesisMismatchError).
 */
export async function openForkedChain(db: Database, genesisSpec: GethGenesis, commons: ForkCommons, fork: ChainFork, replace?: BatchOp[]): Promise<ChainParts> {
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
    await migrateLayout(db, blocks);
    const headHash = await blocks.meta('head');
    const head = headHash === undefined ? undefined : await blocks.block(headHash);
    if (head === undefined) throw new DataDirRefused('its chain is damaged: the head block is missing');
    const headTd = (await blocks.totalDifficulty(head.hash())) ?? head.header.difficulty;
    return { commons, blocks, state, genesis: base, spec: genesisSpec, head, headTd, fork, editedStates: await editedStatesOf(blocks) };
  }
  for await (const key of replace === undefined ? db.root.keys({ limit: 1 }) : []) {
    // The fork's own cache may be there already (key space `k…`): it is written before the chain.
    const isForkCache = (key as Uint8Array)[0] === 0x21 && (key as Uint8Array)[1] === 0x6b;
    if (!isForkCache) throw new DataDirRefused(`it holds a database but no chain (no genesis record; its first key is ${bytesToHex(key as Uint8Array)})`);
  }
  const headTd = fork.baseTotalDifficulty ?? base.header.difficulty;
  await blocks.write([...(replace ?? []), ...forkGenesisOps(db, blocks, base, genesisSpec, headTd)]);
  state.landed(undefined, base.header.stateRoot);
  return { commons, blocks, state, genesis: base, spec: genesisSpec, head: base, headTd, fork };
}

/** What makes a fork's chain in a data dir: the fork block as genesis and head; its transactions' records stay the remote's. */
function forkGenesisOps(db: Database, blocks: BlockStore, base: Block, genesisSpec: GethGenesis, totalDifficulty: bigint): BatchOp[] {
  const hash = base.hash();
  return [
    { type: 'put', sublevel: db.totalDifficulty, key: hash, value: bigIntToUnpaddedBytes(totalDifficulty) },
    { type: 'put', sublevel: db.blocks, key: hash, value: encodeStoredBlock(base.serialize()) },
    { type: 'put', sublevel: db.canonical, key: numberKey(base.header.number), value: hash },
    blocks.metaOp('genesis', hash),
    blocks.metaOp('head', hash),
    blocks.metaOp('genesisSpec', specBytes(genesisSpec)),
    layoutOp(db),
  ];
}

/**
 * Opens the chain in `db`, writing the genesis into an empty one; refuses a db made from another
 * genesis (GenesisMismatchError), and one holding something else or a damaged head (DataDirRefused).
 * A data dir of an older storage layout is migrated first; `progress` hears of it.
 */
export async function openChain(db: Database, genesisSpec: GethGenesis, progress?: (message: string) => void): Promise<ChainParts> {
  await db.open();
  const { commons, blocks, state } = await storesOf(db, genesisSpec);
  const storedGenesis = await blocks.meta('genesis');
  const storedSpec = await blocks.meta('genesisSpec');
  if (storedGenesis !== undefined && storedSpec !== undefined && equalsBytes(storedSpec, specBytes(genesisSpec))) {
    // The data dir was made from this very spec: its genesis is the one stored, not worth building
    // again — read once the data dir is in the current layout.
    await migrateLayout(db, blocks, progress);
    const genesis = await blocks.block(storedGenesis);
    if (genesis === undefined) throw new DataDirRefused(`its chain is damaged: the genesis block ${bytesToHex(storedGenesis)} is missing`);
    return resumeChain(db, { commons, blocks, state, genesis, genesisSpec }, progress);
  }
  const genesis = await buildGenesis(commons, state, genesisSpec);
  if (storedGenesis === undefined) {
    for await (const key of db.root.keys({ limit: 1 })) {
      throw new DataDirRefused(`it holds a database but no chain (no genesis record; its first key is ${bytesToHex(key as Uint8Array)})`);
    }
    await blocks.write(genesisOps(db, state, blocks, genesis, genesisSpec));
    state.landed(undefined, genesis.header.stateRoot);
    return { commons, blocks, state, genesis, spec: genesisSpec, head: genesis, headTd: genesis.header.difficulty };
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
  return resumeChain(db, { commons, blocks, state, genesis, genesisSpec }, progress);
}

/** Opens the chain a data dir holds, its genesis known to match: migrated to the current layout, its head checked. */
async function resumeChain(
  db: Database,
  { commons, blocks, state, genesis, genesisSpec }: { commons: ForkCommons; blocks: BlockStore; state: StateStore; genesis: Block; genesisSpec: GethGenesis },
  progress?: (message: string) => void,
): Promise<ChainParts> {
  await migrateLayout(db, blocks, progress);
  const headHash = await blocks.meta('head');
  const head = headHash === undefined ? undefined : await blocks.block(headHash);
  if (head === undefined) throw new DataDirRefused(`its chain is damaged: ${headHash === undefined ? 'the head record is missing' : `the head block ${bytesToHex(headHash)} is missing`}`);
  const problem = await headProblem(db, head);
  if (problem !== undefined) throw new DataDirRefused(`its chain is damaged: ${problem}`);
  const headTd = (await blocks.totalDifficulty(head.hash())) ?? head.header.difficulty;
  const stored = async (name: string) => {
    const hash = await blocks.meta(name);
    return hash === undefined ? undefined : blocks.block(hash);
  };
  const forkchoice = { safe: await stored('safe'), finalized: await stored('finalized') };
  return { commons, blocks, state, genesis, spec: genesisSpec, head, headTd, forkchoice, editedStates: await editedStatesOf(blocks) };
}

/**
 * Replaces the chain in `db` with a new one from `genesisSpec`, emptying `alsoClear` too, in one
 * atomic batch: a crash leaves the old chain or the new one, never a mix. Trie nodes stay (they
 * are content-addressed; a new genesis often shares them).
 */
export async function replaceChain(db: Database, genesisSpec: GethGenesis, alsoClear: Section[]): Promise<ChainParts> {
  const { commons, blocks, state } = await storesOf(db, genesisSpec);
  const genesis = await buildGenesis(commons, state, genesisSpec);
  try {
    await blocks.write([...(await blocks.clearOps(alsoClear)), ...genesisOps(db, state, blocks, genesis, genesisSpec)]);
  } catch (error) {
    state.discard();
    throw error;
  }
  state.landed(undefined, genesis.header.stateRoot);
  return { commons, blocks, state, genesis, spec: genesisSpec, head: genesis, headTd: genesis.header.difficulty };
}

/** The chain's fork rules, block store and state store over `db`. */
async function storesOf(db: Database, genesisSpec: GethGenesis) {
  const commons = new ForkCommons(commonFromGenesis(genesisSpec));
  const blocks = new BlockStore(db, (header) => commons.at(header));
  const state = await StateStore.open(db.trie, db.preimages, genesisCommon(commons, genesisSpec), db.damage);
  return { commons, blocks, state };
}

function genesisCommon(commons: ForkCommons, genesisSpec: GethGenesis): Common {
  return commons.at({ number: 0n, timestamp: BigInt(genesisSpec.timestamp ?? 0) });
}

/** The genesis block of `genesisSpec`, its state written into the state store's buffer. */
async function buildGenesis(commons: ForkCommons, state: StateStore, genesisSpec: GethGenesis): Promise<Block> {
  const root = await writeGenesisState(genesisSpec, state.writer);
  return genesisBlock(genesisSpec, genesisCommon(commons, genesisSpec), root);
}

/** What makes a chain of `genesis` in an empty data dir (or one cleared in the same batch), in the current layout. */
function genesisOps(db: Database, state: StateStore, blocks: BlockStore, genesis: Block, genesisSpec: GethGenesis): BatchOp[] {
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
export async function storedGenesisSpec(db: Database): Promise<NodeGenesis | undefined> {
  const bytes = await db.meta.get(utf8ToBytes('genesisSpec'));
  return bytes === undefined ? undefined : JSON.parse(bytesToUtf8(bytes));
}
