// The differential test's run: generated programs, the benchmark token and the execution-apis chain, each case
// through the edited engine and the pristine one, counted, every mismatch kept with its diff.
import type { Case } from './case.js';
import { compareCase, type Mismatch } from './compare.js';
import { compareChain, executionApisChain } from './corpus/chain.js';
import { randomCase } from './corpus/random.js';
import { recordedCases } from './corpus/recorded.js';
import { tokenCase } from './corpus/token.js';
import { engines } from './engine.js';
import { Signer } from './signer.js';

/** The recorded transactions npm test replays: a part of the suite's, recorded (see docs/engine.md). */
export const RECORDED_FIXTURE = 'test/fixtures/difftest/recorded-txs.jsonl';

export interface DifftestOptions {
  /** generated cases (one in every `tokenEvery` is a token case instead) */
  cases: number;
  /** the first case's seed; case i runs seed + i */
  seed: number;
  /** one case in this many compares step traces too */
  traceEvery: number;
  tokenEvery: number;
  /** replay the execution-apis chain (traced) as well */
  chain: boolean;
  /** a recording of transactions the suite sent (test/helpers/recorded-txs.ts), replayed (traced) as well */
  recorded?: string;
  /** the repository's root, where test/fixtures is */
  root: string;
  progress?: (done: number, mismatches: number) => void;
  /** told each case's name as it begins (the last one names a case that never ends) */
  starting?: (name: string) => void;
}

export interface DifftestReport {
  random: number;
  token: number;
  traced: number;
  /** generated cases run as a built block */
  blocks: number;
  transactions: number;
  /** cases made of recorded transactions, and how many transactions they replayed */
  recorded: number;
  recordedTransactions: number;
  chainBlocks: number;
  mismatches: Mismatch[];
  chainProblems: string[];
}

export async function difftest(options: DifftestOptions): Promise<DifftestReport> {
  const both = await engines();
  const signer = new Signer(both.edited);
  const report: DifftestReport = { random: 0, token: 0, traced: 0, blocks: 0, transactions: 0, recorded: 0, recordedTransactions: 0, chainBlocks: 0, mismatches: [], chainProblems: [] };
  for (let i = 0; i < options.cases; i++) {
    const seed = options.seed + i;
    const trace = i % options.traceEvery === 0;
    const isToken = i % options.tokenEvery === options.tokenEvery - 1;
    const c: Case = isToken ? tokenCase(seed, signer, trace) : randomCase(seed, signer, trace);
    if (isToken) report.token++;
    else report.random++;
    if (trace) report.traced++;
    if (c.asBlock === true) report.blocks++;
    report.transactions += c.steps.length;
    options.starting?.(c.name);
    const mismatch = await compareCase(both, c);
    if (mismatch !== undefined) report.mismatches.push(mismatch);
    if ((i + 1) % 500 === 0) options.progress?.(i + 1, report.mismatches.length);
  }
  for (const c of options.recorded === undefined ? [] : recordedCases(both.edited, options.recorded, true)) {
    report.recorded++;
    report.recordedTransactions += c.steps.length;
    options.starting?.(c.name);
    const mismatch = await compareCase(both, c);
    if (mismatch !== undefined) report.mismatches.push(mismatch);
  }
  if (options.chain) {
    const chain = executionApisChain(options.root);
    options.starting?.('the execution-apis chain');
    report.chainProblems = await compareChain(both, chain, true);
    report.chainBlocks = countBlocks(both.edited, chain.blocks);
  }
  return report;
}

function countBlocks(e: Awaited<ReturnType<typeof engines>>['edited'], bytes: Uint8Array): number {
  let n = 0;
  for (let rest = bytes; rest.length > 0; n++) rest = e.rlp.RLP.decode(rest, true).remainder;
  return n;
}
