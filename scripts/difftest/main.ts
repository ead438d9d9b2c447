// npm run difftest -- [--cases N] [--seed S] [--trace-every K] [--no-chain] [--recorded FILE]: the differential test's
// long run (the recorded transactions: the fixture's unless FILE is another recording).
// Exits 1 on any mismatch, printing each with its diff. With --speed [--rounds R] [--op NAME], instead: each
// engine's CPU time per operation (speed.ts).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { difftest, RECORDED_FIXTURE } from './run.js';
import { speed } from './speed.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '2000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
    'trace-every': { type: 'string', default: '10' },
    'no-chain': { type: 'boolean', default: false },
    recorded: { type: 'string' },
    speed: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    op: { type: 'string', default: '' },
  },
});
if (values.speed) {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const row of await speed(Number(values.rounds), values.op)) {
    const [edited, pristine] = [median(row.edited), median(row.pristine)];
    console.log(`${row.op}: edited ${edited.toFixed(1)} µs, pristine ${pristine.toFixed(1)} µs (median of ${row.edited.length}; edited ÷ pristine ${(edited / pristine).toFixed(2)})`);
  }
  process.exit(0);
}
const started = performance.now();
const seed = Number(values.seed);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// A case whose promises never settle ends the process with nothing left to run (exit code 13): say which.
let begun = '';
let ended = false;
process.on('exit', () => {
  if (!ended) process.stderr.write(`difftest: stopped in ${begun || 'its start'} before the run ended\n`);
});
const report = await difftest({
  cases: Number(values.cases),
  seed,
  traceEvery: Number(values['trace-every']),
  tokenEvery: 50,
  chain: !values['no-chain'],
  recorded: values.recorded ?? join(root, RECORDED_FIXTURE),
  root,
  starting: (name) => (begun = name),
  progress: (done, mismatches) => process.stderr.write(`${done} cases, ${mismatches} mismatches, ${((performance.now() - started) / 1000).toFixed(0)} s\n`),
});
ended = true;
for (const mismatch of report.mismatches) console.log(JSON.stringify(mismatch, null, 2));
for (const problem of report.chainProblems) console.log(problem);
console.log(
  `seeds ${seed}..${seed + Number(values.cases) - 1}: ${report.random} generated (${report.blocks} blocks) + ${report.token} token cases (${report.traced} traced), ${report.transactions} transactions and calls, ` +
    `${report.recordedTransactions} recorded transactions in ${report.recorded} cases, ${report.chainBlocks} chain blocks; ${report.mismatches.length + report.chainProblems.length} mismatches in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
process.exitCode = report.mismatches.length + report.chainProblems.length === 0 ? 0 : 1;
