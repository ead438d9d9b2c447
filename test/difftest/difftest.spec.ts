// The guard on patches/: the edited @ethereumjs packages answer what their pristine copies answer, per
// transaction and message (return data, gas, refund, logs, error, created address, state root) and per step
// of the trace, over generated programs, the benchmark token and the execution-apis chain. `npm run difftest`
// runs the same with many more cases.
import { expect } from 'chai';
import { difftest, type DifftestReport } from '../../scripts/difftest/run.js';

const CASES = 600;

describe('the differential test (edited engine against the pristine one)', function () {
  this.timeout(600_000);
  let report: DifftestReport;

  before(async () => {
    report = await difftest({ cases: CASES, seed: 1, traceEvery: 10, tokenEvery: 50, chain: true, root: process.cwd() });
  });

  it('answers every generated program case as the pristine engine does', () => {
    expect(report.random + report.token).to.equal(CASES);
    expect(report.mismatches.map((m) => JSON.stringify(m, null, 1).slice(0, 4000))).to.deep.equal([]);
  });

  it('ran the benchmark token and traced cases among them', () => {
    expect(report.token).to.be.greaterThan(0);
    expect(report.traced).to.be.greaterThan(50);
  });

  it("replays the execution-apis chain as the pristine engine does, to geth's state roots", () => {
    expect(report.chainBlocks).to.be.greaterThan(50);
    expect(report.chainProblems).to.deep.equal([]);
  });
});
