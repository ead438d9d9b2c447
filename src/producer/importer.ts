import { createBlockFromBytesArray, type Block, type BlockBytes } from '@ethereumjs/block';
import { RLP, type NestedUint8Array } from '@ethereumjs/rlp';
import { bytesToBigInt, bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { RunBlockResult, VM } from '@ethereumjs/vm';
import { createChainVM, loadVmLibrary } from '../state/vm.js';
import { BlockRuleError, checkHeader, checkTotalDifficulty, checkUncles } from '../chain/block-rules.js';
import type { Chain } from '../chain/chain.js';
import type { StoredReceipt } from '../chain/receipts.js';
import type { SyncStatus } from '../chain/sync-status.js';

/** A block that failed to import: which one, which field, and how. Blocks before it stay imported. */
export class ImportError extends Error {
  constructor(
    readonly blockNumber: bigint,
    readonly blockHash: string,
    readonly field: string,
    readonly detail: string,
  ) {
    super(`block ${blockNumber} (${blockHash}) is invalid: ${field}: ${detail}`);
    this.name = 'ImportError';
  }
}

export interface ImportProgress {
  /** the block just imported (or skipped as already present) */
  number: bigint;
  done: number;
  total: number;
}

export interface ImportOptions {
  /** the genesis' terminalTotalDifficulty, for the merge transition rules */
  terminalTotalDifficulty?: bigint;
  /** eth_syncing's view of the import, when a serving node imports */
  sync?: SyncStatus;
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportResult {
  imported: number;
  /** blocks the chain already held (a re-run of the same import) */
  skipped: number;
  head: Block;
  seconds: number;
}

/** One block as RLP values: [header fields, transactions, uncles, withdrawals?]. */
export type RawBlock = NestedUint8Array;

/** The blocks of an RLP chain file (concatenated RLP block lists, as geth's `export` writes), undecoded. */
export function splitChainFile(bytes: Uint8Array): RawBlock[] {
  const blocks: RawBlock[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const { data, remainder } = RLP.decode(rest, true);
    if (data instanceof Uint8Array) throw new Error(`chain file: item ${blocks.length} is not an RLP list`);
    blocks.push(data);
    rest = remainder;
  }
  return blocks;
}

// Messages of @ethereumjs/vm's runBlock and @ethereumjs/block's validateData → the header field at fault.
const LIBRARY_FIELDS: [RegExp, string][] = [
  [/invalid block stateRoot/, 'stateRoot'],
  [/invalid receiptTrie/, 'receiptsRoot'],
  [/invalid bloom/, 'logsBloom'],
  [/invalid gasUsed/, 'gasUsed'],
  [/invalid requestsHash/, 'requestsHash'],
  [/invalid transaction trie/, 'transactionsRoot'],
  [/invalid uncle hash/, 'sha3Uncles'],
  [/invalid withdrawals trie/, 'withdrawalsRoot'],
  [/blobGasUsed|blob gas/i, 'blobGasUsed'],
  [/invalid transactions|transaction/i, 'transactions'],
];

function fieldOf(message: string): string {
  return LIBRARY_FIELDS.find(([pattern]) => pattern.test(message))?.[1] ?? 'execution';
}

/**
 * Imports blocks onto the chain's head, each executed with full validation: the header rules of
 * its fork against its parent (difficulty and total difficulty before the merge, base fee, blob
 * gas…), then @ethereumjs/vm's runBlock, which checks the transactions root, gas used, logs
 * bloom, receipts root, requests hash and state root. Each block lands atomically with its
 * receipts; the first invalid one stops the import with an {@link ImportError}.
 *
 * The chain's writer state is advanced, so nothing else (a miner) may build blocks meanwhile.
 */
export async function importBlocks(chain: Chain, rawBlocks: RawBlock[], opts: ImportOptions = {}): Promise<ImportResult> {
  const started = performance.now();
  const vm = await createChainVM(chain, chain.commons.base, chain.state.writer);
  let imported = 0;
  let skipped = 0;
  const total = rawBlocks.length;
  const firstNumber = rawBlocks.length > 0 ? headerNumber(rawBlocks[0]) : chain.head().header.number;
  opts.sync?.begin(chain.head().header.number, firstNumber + BigInt(total) - 1n);
  try {
    for (const [index, raw] of rawBlocks.entries()) {
      const block = decode(chain, raw, index);
      if (await alreadyCanonical(chain, block)) {
        skipped++;
      } else {
        await importBlock(chain, vm, block, opts.terminalTotalDifficulty);
        imported++;
      }
      opts.sync?.advance(chain.head().header.number);
      opts.onProgress?.({ number: block.header.number, done: index + 1, total });
    }
  } finally {
    opts.sync?.end();
  }
  return { imported, skipped, head: chain.head(), seconds: (performance.now() - started) / 1000 };
}

const headerField = (raw: RawBlock, index: number): bigint => {
  const header = raw[0];
  const field = header instanceof Uint8Array ? undefined : header?.[index];
  return field instanceof Uint8Array ? bytesToBigInt(field) : 0n;
};
const headerNumber = (raw: RawBlock): bigint => headerField(raw, 8);

function decode(chain: Chain, raw: RawBlock, index: number): Block {
  const number = headerNumber(raw);
  const timestamp = headerField(raw, 11);
  try {
    // The consensus-format rules (proof-of-stake difficulty, nonce…) are checkHeader's, which names the field.
    // The library checks the lists' shape as it builds the block (a wrong one fails here, as encoding).
    return createBlockFromBytesArray(raw as BlockBytes, { common: chain.commons.at({ number, timestamp }), setHardfork: false, skipConsensusFormatValidation: true });
  } catch (error) {
    throw new ImportError(number, `item ${index} of the chain file`, 'encoding', (error as Error).message);
  }
}

async function alreadyCanonical(chain: Chain, block: Block): Promise<boolean> {
  if (block.header.number > chain.head().header.number) return false;
  const canonical = await chain.blocks.canonicalHash(block.header.number);
  return canonical !== undefined && equalsBytes(canonical, block.hash());
}

async function importBlock(chain: Chain, vm: VM, block: Block, terminalTd: bigint | undefined): Promise<void> {
  const parent = chain.head();
  const reject = (field: string, detail: string): never => {
    throw new ImportError(block.header.number, bytesToHex(block.hash()), field, detail);
  };
  if (!equalsBytes(block.header.parentHash, parent.hash())) {
    reject('parentHash', `have ${bytesToHex(block.header.parentHash)}, want the head ${bytesToHex(parent.hash())} (block ${parent.header.number}); reorganisations are not imported`);
  }
  const parentTd = await chain.totalDifficulty(parent);
  try {
    checkHeader(block.header, parent.header);
    checkTotalDifficulty(block.header, parentTd, terminalTd);
    checkUncles(block, await ancestors(chain, parent, 7));
    block.validateBlobTransactions(parent.header);
  } catch (error) {
    if (error instanceof BlockRuleError) reject(error.field, error.message);
    reject(fieldOf((error as Error).message), (error as Error).message);
  }

  const state = chain.state.writer;
  if (!equalsBytes(await state.getStateRoot(), parent.header.stateRoot)) await state.setStateRoot(parent.header.stateRoot);
  let result: RunBlockResult;
  try {
    const { runBlock } = await loadVmLibrary();
    result = await runBlock(vm, { block, skipHeaderValidation: true, setHardfork: true });
  } catch (error) {
    chain.state.discard();
    await state.setStateRoot(parent.header.stateRoot);
    return reject(fieldOf((error as Error).message), (error as Error).message);
  }
  const receipts = result.receipts.map((receipt, i): StoredReceipt => {
    const r = receipt as typeof receipt & { status?: 0 | 1; stateRoot?: Uint8Array; blobGasUsed?: bigint };
    return {
      status: r.status,
      stateRoot: r.stateRoot,
      cumulativeGasUsed: r.cumulativeBlockGasUsed,
      gasUsed: result.results[i].totalGasSpent,
      logs: r.logs,
      // Recovered once, while executing (the transaction caches it); stored so the RPC never recovers again.
      sender: block.transactions[i].getSenderAddress().bytes,
      contractAddress: result.results[i].createdAddress?.bytes,
      blobGasUsed: r.blobGasUsed,
    };
  });
  try {
    await chain.append(block, receipts);
  } catch (error) {
    chain.state.discard();
    await state.setStateRoot(parent.header.stateRoot);
    throw error;
  }
}

/** Up to `count` blocks from `from` backwards. */
async function ancestors(chain: Chain, from: Block, count: number): Promise<Block[]> {
  const found = [from];
  while (found.length < count && found[found.length - 1].header.number > 0n) {
    const previous = await chain.blockByHash(found[found.length - 1].header.parentHash);
    if (previous === undefined) break;
    found.push(previous);
  }
  return found;
}
