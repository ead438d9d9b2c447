import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { Chain, GenesisMismatchError } from './chain/chain.js';
import type { GethGenesis } from './chain/genesis.js';
import { importBlocks, splitChainFile, type ImportProgress, type ImportResult, type RawBlock } from './producer/importer.js';
import type { SyncStatus } from './chain/sync-status.js';
import { ConfigError, type NodeConfig } from './config.js';
import { openDatabase } from './storage/database.js';
import { DataDirRefused } from './storage/storage-fault.js';

/** Where progress and the summary go: a terminal gets a redrawn bar, anything else plain lines. */
export interface ImportOutput {
  write(text: string): void;
  isTTY?: boolean;
}

export interface ImportSummary extends ImportResult {
  blocksPerSecond: number;
  safe?: string;
  finalized?: string;
}

async function readJson<T>(path: string, what: string): Promise<T> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    throw new ConfigError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

/** The safe and finalized hashes of an engine_forkchoiceUpdated request (execution-apis' headfcu.json). */
export async function readForkchoice(path: string): Promise<{ head: string; safe: string; finalized: string }> {
  const request = await readJson<{ params?: { headBlockHash?: string; safeBlockHash?: string; finalizedBlockHash?: string }[] }>(path, '--forkchoice');
  const state = request.params?.[0];
  if (state?.headBlockHash === undefined || state.safeBlockHash === undefined || state.finalizedBlockHash === undefined) {
    throw new ConfigError(`--forkchoice ${path}: expected an engine_forkchoiceUpdated request with headBlockHash, safeBlockHash and finalizedBlockHash`);
  }
  return { head: state.headBlockHash, safe: state.safeBlockHash, finalized: state.finalizedBlockHash };
}

/** A bar redrawn at most ten times a second on a terminal; elsewhere a plain line a second. */
function progressReporter(out: ImportOutput): (p: ImportProgress) => void {
  const tty = out.isTTY === true;
  let last = 0;
  return ({ number, done, total }) => {
    const now = performance.now();
    if (done < total && now - last < (tty ? 100 : 1000)) return;
    last = now;
    if (tty) {
      const width = 30;
      const filled = Math.round((done / total) * width);
      out.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} blocks, at block ${number}${done === total ? '\n' : ''}`);
    } else {
      out.write(`at block ${number}: ${done}/${total} blocks\n`);
    }
  };
}

/** What an import will do: the blocks of the chain files, and the forkchoice to record after them. */
export interface ImportPlan {
  blocks: RawBlock[];
  forkchoice?: { head: string; safe: string; finalized: string };
  forkchoicePath?: string;
}

/** Reads the chain files (and the forkchoice: --forkchoice, or a headfcu.json beside the first file). */
export async function readImportPlan(files: string[], forkchoiceFlag: string | undefined): Promise<ImportPlan> {
  if (files.length === 0) throw new ConfigError('import needs at least one chain file: evm-node import --data-dir DIR --genesis FILE CHAIN.rlp');
  const besideChain = join(dirname(files[0]), 'headfcu.json');
  const forkchoicePath = forkchoiceFlag ?? (existsSync(besideChain) ? besideChain : undefined);
  const forkchoice = forkchoicePath === undefined ? undefined : await readForkchoice(forkchoicePath);
  const chunks = await Promise.all(
    files.map((file) =>
      readFile(file).catch((error: Error) => {
        throw new ConfigError(`cannot read chain file ${file}: ${error.message}`);
      }),
    ),
  );
  return { blocks: chunks.flatMap((bytes) => splitChainFile(bytes)), forkchoice, forkchoicePath };
}

/**
 * Imports the plan's blocks onto `chain` and records its forkchoice. Nothing else may build blocks
 * on the chain meanwhile (a serving node runs this inside the miner's turn).
 */
export async function applyImport(chain: Chain, plan: ImportPlan, out: ImportOutput, sync?: SyncStatus): Promise<ImportSummary> {
  const ttd = (chain.spec.config as { terminalTotalDifficulty?: number | string | bigint }).terminalTotalDifficulty;
  const result = await importBlocks(chain, plan.blocks, {
    terminalTotalDifficulty: ttd === undefined || ttd === null ? undefined : BigInt(ttd),
    onProgress: progressReporter(out),
    sync,
  });
  const summary: ImportSummary = { ...result, blocksPerSecond: result.seconds > 0 ? result.imported / result.seconds : 0 };
  const { forkchoice } = plan;
  if (forkchoice !== undefined) {
    const find = async (hash: string, role: string) => {
      const block = await chain.blockByHash(hexToBytes(hash as PrefixedHexString));
      if (block === undefined) throw new ConfigError(`forkchoice ${plan.forkchoicePath}: the ${role} block ${hash} is not in the imported chain`);
      return block;
    };
    const [safe, finalized] = [await find(forkchoice.safe, 'safe'), await find(forkchoice.finalized, 'finalized')];
    await chain.setForkchoice(safe, finalized);
    summary.safe = `${safe.header.number} ${bytesToHex(safe.hash())}`;
    summary.finalized = `${finalized.header.number} ${bytesToHex(finalized.hash())}`;
    if (forkchoice.head !== bytesToHex(chain.head().hash())) {
      out.write(`note: the forkchoice's head ${forkchoice.head} is not the imported head ${bytesToHex(chain.head().hash())}\n`);
    }
  }
  return summary;
}

/**
 * The `import` command: opens (or creates, from --genesis) the data dir's chain, imports each RLP
 * chain file onto it, records the forkchoice, and reports the time taken and blocks/s.
 */
export async function importChainFiles(config: NodeConfig, files: string[], out: ImportOutput): Promise<ImportSummary> {
  const dir = config.dataDir;
  if (dir === undefined) throw new ConfigError('import needs --data-dir DIR, the data dir whose chain it imports onto');
  const plan = await readImportPlan(files, config.forkchoice);
  const db = await openDatabase(dir);
  try {
    const spec = config.genesis !== undefined ? await readJson<GethGenesis>(config.genesis, '--genesis') : await Chain.storedGenesisSpec(db);
    if (spec === undefined) throw new ConfigError(`${dir} holds no chain yet: give its genesis with --genesis FILE`);
    let chain: Chain;
    try {
      chain = await Chain.open(db, spec, (message) => out.write(`${message}\n`));
    } catch (error) {
      if (error instanceof GenesisMismatchError) throw new ConfigError(error.message);
      if (error instanceof DataDirRefused) throw new DataDirRefused(`the data dir ${dir}: ${error.message}`);
      throw error;
    }
    return await applyImport(chain, plan, out);
  } finally {
    await db.close();
  }
}

export function describeImport(s: ImportSummary): string {
  const lines = [
    `imported ${s.imported} blocks${s.skipped > 0 ? ` (${s.skipped} already present)` : ''} in ${s.seconds.toFixed(2)} s: ${s.blocksPerSecond.toFixed(1)} blocks/s`,
    `head ${s.head.header.number} ${bytesToHex(s.head.hash())}`,
  ];
  if (s.safe !== undefined) lines.push(`safe ${s.safe}`, `finalized ${s.finalized}`);
  return lines.join('\n') + '\n';
}
