// The execution-apis test chain (test/fixtures/execution-apis: 54 blocks from proof of work through the
// merge to the BPO forks) re-executed block by block by each engine from its genesis: every transaction's
// result, every block's receipts, gas, bloom and state root compared — and the state roots with the ones
// geth put in the headers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GethGenesis } from '@ethereumjs/common';
import type { PrefixedHexString } from '@ethereumjs/util';
import { world, type AccountSpec } from '../case.js';
import { CRYPTO, withLibraryParams, type Common, type Engine, type Engines } from '../engine.js';
import { firstDifference, hex, thrown, txOutcome, type Outcome } from '../outcome.js';
import { listen } from '../trace.js';

export interface ChainFixture {
  genesis: GethGenesis;
  /** the chain file: one RLP-encoded block after another */
  blocks: Uint8Array;
}

export function executionApisChain(root: string): ChainFixture {
  const dir = join(root, 'test', 'fixtures', 'execution-apis');
  return { genesis: JSON.parse(readFileSync(join(dir, 'genesis.json'), 'utf8')) as GethGenesis, blocks: Uint8Array.from(readFileSync(join(dir, 'chain.rlp'))) };
}

/** The chain's Common as the node makes it from a geth genesis (src/chain/genesis.ts), on engine `e`. */
function chainCommon(e: Engine, genesis: GethGenesis): Common {
  const params = e.common.parseGethGenesis(genesis, 'difftest');
  for (const [fork, entry] of Object.entries((genesis.config as { blobSchedule?: Record<string, { target: number; max: number }> }).blobSchedule ?? {})) {
    const custom = params.customHardforks?.[fork];
    if (custom !== undefined && /^bpo\d+$/.test(fork)) custom.params = { ...custom.params, target: entry.target, max: entry.max };
  }
  return withLibraryParams(e, new e.common.Common({ chain: params as never, hardfork: params.hardfork, customCrypto: CRYPTO }));
}

function genesisAccounts(e: Engine, genesis: GethGenesis): AccountSpec[] {
  return Object.entries(e.common.parseGethGenesisState(genesis)).map(([address, entry]) => {
    const [balance, code, storage, nonce] = Array.isArray(entry) ? entry : [entry];
    return {
      address: address as PrefixedHexString,
      balance: BigInt(balance ?? '0x0'),
      nonce: BigInt(nonce ?? '0x0'),
      code: code === undefined || code === '0x' ? undefined : e.util.hexToBytes(code as PrefixedHexString),
      storage: ((storage ?? []) as [string, string][]).map(([slot, value]) => [e.util.setLengthLeft(e.util.hexToBytes(slot as PrefixedHexString), 32), e.util.hexToBytes(value as PrefixedHexString)]),
    };
  });
}

/** Each block's outcome on engine `e`: its transactions' results, receipts, gas, bloom, state root, and the trace. */
async function replay(e: Engine, chain: ChainFixture, trace: boolean): Promise<{ outcomes: Outcome[]; trace: string[] }> {
  const common = chainCommon(e, chain.genesis);
  common.setHardforkBy({ blockNumber: 0n, timestamp: BigInt(chain.genesis.timestamp ?? 0) });
  const state = await world(e, common, genesisAccounts(e, chain.genesis));
  const blocks: { hash(): Uint8Array }[] = [];
  const history = {
    getBlock: async (number: number) => blocks[number - 1],
    putBlock: async () => {},
    shallowCopy: () => history,
  };
  const vm = await e.vm.createVM({ common, stateManager: state, blockchain: history as never });
  const listening = trace ? listen(vm) : undefined;
  const outcomes: Outcome[] = [];
  let rest = chain.blocks;
  while (rest.length > 0) {
    const { data, remainder } = e.rlp.RLP.decode(rest, true);
    rest = remainder;
    const values = data as unknown as Uint8Array[][];
    const number = e.util.bytesToBigInt(values[0]![8] as unknown as Uint8Array);
    const timestamp = e.util.bytesToBigInt(values[0]![11] as unknown as Uint8Array);
    const blockCommon = common.copy();
    blockCommon.setHardforkBy({ blockNumber: number, timestamp });
    const block = e.block.createBlockFromBytesArray(values as never, { common: blockCommon, setHardfork: false, skipConsensusFormatValidation: true });
    const results: Outcome[] = [];
    const afterTx = (result: Parameters<typeof txOutcome>[0]) => results.push(txOutcome(result));
    vm.events.on('afterTx', afterTx as never);
    let outcome: Outcome;
    try {
      const run = await e.vm.runBlock(vm, { block, skipHeaderValidation: true, setHardfork: true });
      outcome = { stateRoot: hex(run.stateRoot), gasUsed: run.gasUsed.toString(), bloom: hex(run.logsBloom), receiptsRoot: hex(run.receiptsRoot), txs: results, matchesHeader: hex(run.stateRoot) === hex(block.header.stateRoot) };
    } catch (error) {
      outcome = { ...thrown(error), txs: results };
    }
    vm.events.off('afterTx', afterTx as never);
    outcomes.push({ block: number.toString(), ...outcome });
    blocks.push(block);
  }
  listening?.stop();
  return { outcomes, trace: listening?.trace ?? [] };
}

/** Where the engines' replays of the chain differ, or where either's state root is not geth's; empty when neither. */
export async function compareChain(engines: Engines, chain: ChainFixture, trace: boolean): Promise<string[]> {
  const edited = await replay(engines.edited, chain, trace);
  const pristine = await replay(engines.pristine, chain, trace);
  const problems: string[] = [];
  edited.outcomes.forEach((outcome, i) => {
    const found = firstDifference(outcome, pristine.outcomes[i]);
    if (found !== undefined) problems.push(`block ${outcome.block}: ${found}`);
    else if (outcome.matchesHeader !== true) problems.push(`block ${outcome.block}: both engines' state root differs from the header's (${JSON.stringify(outcome).slice(0, 300)})`);
  });
  if (edited.outcomes.length !== pristine.outcomes.length) problems.push(`${edited.outcomes.length} blocks replayed by the edited engine, ${pristine.outcomes.length} by the pristine`);
  const line = edited.trace.findIndex((text, i) => text !== pristine.trace[i]);
  if (line !== -1 || edited.trace.length !== pristine.trace.length) problems.push(`trace line ${line}: edited ${edited.trace[line]} ≠ pristine ${pristine.trace[line]}`);
  return problems;
}

