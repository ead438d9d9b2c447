import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBlockHeader } from '@ethereumjs/block';
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex } from '@ethereumjs/util';
import { MemoryLevel } from 'memory-level';
import { BlockRuleError, checkTotalDifficulty } from '../../src/chain/block-rules.js';
import { resolveBlock } from '../../src/chain/block-tags.js';
import { Chain } from '../../src/chain/chain.js';
import type { GethGenesis } from '../../src/chain/genesis.js';
import { ImportError, importBlocks, splitChainFile, type RawBlock } from '../../src/producer/importer.js';
import { SyncStatus } from '../../src/chain/sync-status.js';
import { sectionsOf, type BinaryLevel } from '../../src/storage/database.js';

function fixtures(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'test', 'fixtures', 'execution-apis', 'chain.rlp'))) {
    if (dirname(dir) === dir) throw new Error('cannot find test/fixtures/execution-apis');
    dir = dirname(dir);
  }
  return join(dir, 'test', 'fixtures', 'execution-apis');
}

const FIXTURES = fixtures();
const genesis = JSON.parse(readFileSync(join(FIXTURES, 'genesis.json'), 'utf8')) as GethGenesis;
const TTD = BigInt((genesis.config as { terminalTotalDifficulty: number }).terminalTotalDifficulty);
const HEAD = '0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7';
const chainFile = () => splitChainFile(readFileSync(join(FIXTURES, 'chain.rlp')));

async function freshChain(root?: BinaryLevel): Promise<Chain> {
  const db = root ?? (new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' }) as unknown as BinaryLevel);
  if (root === undefined) await db.open();
  return Chain.open(sectionsOf(db), genesis);
}

// Header field positions in a block's RLP.
const FIELD = { stateRoot: 3, receiptsRoot: 5, logsBloom: 6, difficulty: 7, gasUsed: 10, timestamp: 11, baseFeePerGas: 15, excessBlobGas: 18 } as const;

/** The chain file with one header field of block `number` rewritten. */
function tampered(number: number, field: keyof typeof FIELD, change: (value: Uint8Array, parentValue: Uint8Array) => Uint8Array): RawBlock[] {
  const blocks = chainFile();
  const header = [...(blocks[number - 1][0] as Uint8Array[])];
  header[FIELD[field]] = change(header[FIELD[field]], (blocks[number - 2][0] as Uint8Array[])[FIELD[field]]);
  blocks[number - 1] = [header, ...blocks[number - 1].slice(1)];
  return blocks;
}
const plusOne = (value: Uint8Array) => bigIntToUnpaddedBytes(bytesToBigInt(value) + 1n);
const flipLastByte = (value: Uint8Array) => Uint8Array.from(value, (b, i) => (i === value.length - 1 ? b ^ 1 : b));

describe('chain import', function () {
  this.timeout(120_000);

  it('imports the execution-apis test chain through every fork to geth\'s head, tracking sync status', async () => {
    const chain = await freshChain();
    const sync = new SyncStatus();
    const seen: unknown[] = [];
    const result = await importBlocks(chain, chainFile(), {
      terminalTotalDifficulty: TTD,
      sync,
      onProgress: (p) => {
        if (p.done === 1) seen.push(sync.status());
      },
    });
    expect(result.imported).to.equal(54);
    expect(bytesToHex(chain.head().hash())).to.equal(HEAD);
    expect(seen[0]).to.deep.equal({ startingBlock: '0', currentBlock: '1', highestBlock: '54' });
    expect(sync.status()).to.equal(false);
    // The merge: block 35 is the terminal proof-of-work block.
    const terminal = (await chain.blockByNumber(35n))!;
    expect((await chain.totalDifficulty(terminal)) >= TTD).to.equal(true);
    expect((await chain.totalDifficulty((await chain.blockByNumber(34n))!)) < TTD).to.equal(true);
    // Pre-Byzantium receipts carry the intermediate state root instead of a status.
    const [early] = (await chain.blocks.receipts((await chain.blockByNumber(1n))!.hash()))!;
    expect(early.status).to.equal(undefined);
    expect(early.stateRoot).to.have.length(32);

    const again = await importBlocks(chain, chainFile());
    expect(again).to.include({ imported: 0, skipped: 54 });
  });

  const cases: [number, keyof typeof FIELD, (v: Uint8Array, parent: Uint8Array) => Uint8Array, string][] = [
    [5, 'logsBloom', flipLastByte, 'logsBloom'],
    [10, 'difficulty', plusOne, 'difficulty'],
    [20, 'stateRoot', flipLastByte, 'stateRoot'],
    [30, 'gasUsed', plusOne, 'gasUsed'],
    [37, 'difficulty', plusOne, 'difficulty'],
    [40, 'receiptsRoot', flipLastByte, 'receiptsRoot'],
    [44, 'excessBlobGas', plusOne, 'excessBlobGas'],
    [46, 'baseFeePerGas', plusOne, 'baseFeePerGas'],
    [50, 'timestamp', (_, parentTimestamp) => parentTimestamp, 'timestamp'],
  ];
  for (const [number, field, change, reported] of cases) {
    it(`stops at block ${number} with a wrong ${field}, naming the block and ${reported}; the blocks before it stay`, async () => {
      const chain = await freshChain();
      const error = await importBlocks(chain, tampered(number, field, change), { terminalTotalDifficulty: TTD }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ImportError);
      const importError = error as ImportError;
      expect(importError.blockNumber).to.equal(BigInt(number));
      expect(importError.field).to.equal(reported);
      expect(importError.message).to.match(new RegExp(`^block ${number} \\(0x[0-9a-f]{64}\\) is invalid: ${reported}: `));
      expect(chain.head().header.number).to.equal(BigInt(number - 1));
      // The writer state is back at the head's: importing the untouched rest still works.
      const resumed = await importBlocks(chain, chainFile(), { terminalTotalDifficulty: TTD });
      expect(resumed).to.include({ imported: 55 - number, skipped: number - 1 });
      expect(bytesToHex(chain.head().hash())).to.equal(HEAD);
    });
  }

  it('keeps the forkchoice it is given for safe and finalized, across a reopen; without one both are the head', async () => {
    const root = new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' }) as unknown as BinaryLevel;
    await root.open();
    const chain = await freshChain(root);
    await importBlocks(chain, chainFile().slice(0, 12));
    expect(chain.safe().header.number).to.equal(12n);
    expect(chain.finalized().header.number).to.equal(12n);
    await chain.setForkchoice((await chain.blockByNumber(10n))!, (await chain.blockByNumber(8n))!);
    const reopened = await freshChain(root);
    expect((await resolveBlock(reopened, 'safe'))!.header.number).to.equal(10n);
    expect((await resolveBlock(reopened, 'finalized'))!.header.number).to.equal(8n);
    expect((await resolveBlock(reopened, 'latest'))!.header.number).to.equal(12n);
  });

  it('refuses blocks that do not extend the head', async () => {
    const chain = await freshChain();
    const error = await importBlocks(chain, chainFile().slice(3)).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ImportError).with.property('field', 'parentHash');
    expect(chain.head().header.number).to.equal(0n);
  });

  it('keeps proof-of-work before the terminal total difficulty and proof-of-stake after it', async () => {
    const chain = await freshChain();
    const pow = createBlockHeader({ number: 35n, difficulty: 1n }, { common: chain.commons.at({ number: 35n, timestamp: 0n }) });
    const pos = createBlockHeader({ number: 36n }, { common: chain.commons.at({ number: 36n, timestamp: 0n }) });
    expect(() => checkTotalDifficulty(pow, TTD - 1n, TTD)).to.not.throw();
    expect(() => checkTotalDifficulty(pow, TTD, TTD)).to.throw(BlockRuleError, /terminal total difficulty/);
    expect(() => checkTotalDifficulty(pos, TTD, TTD)).to.not.throw();
    expect(() => checkTotalDifficulty(pos, TTD - 1n, TTD)).to.throw(BlockRuleError, /terminal total difficulty/);
  });
});
