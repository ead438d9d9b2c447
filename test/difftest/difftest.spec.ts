// The guard on patches/: the edited @ethereumjs packages answer what their pristine copies answer, per
// transaction and message (return data, gas, refund, logs, error, created address, state root), per built block
// and per step of the trace, over generated programs and blocks, the benchmark token, transactions the suite sent
// (recorded) and the execution-apis chain. `npm run difftest` runs the same with many more cases.
import { expect } from 'chai';
import { difftest, RECORDED_FIXTURE, type DifftestReport } from '../../scripts/difftest/run.js';

const CASES = 600;

describe('the differential test (edited engine against the pristine one)', function () {
  this.timeout(600_000);
  let report: DifftestReport;

  before(async () => {
    report = await difftest({ cases: CASES, seed: 1, traceEvery: 10, tokenEvery: 50, chain: true, recorded: RECORDED_FIXTURE, root: process.cwd() });
  });

  it('answers every case (generated programs and blocks, the token, recorded transactions) as the pristine engine does', () => {
    expect(report.random + report.token).to.equal(CASES);
    expect(report.mismatches.map((m) => JSON.stringify(m, null, 1).slice(0, 4000))).to.deep.equal([]);
  });

  it('ran the benchmark token, built blocks and traced cases among them', () => {
    expect(report.token).to.be.greaterThan(0);
    expect(report.blocks).to.be.greaterThan(100);
    expect(report.traced).to.be.greaterThan(50);
  });

  it('replays the transactions the suite sent (a recording of some of its specs) as the pristine engine does', () => {
    expect(report.recorded).to.be.greaterThan(10);
    expect(report.recordedTransactions).to.be.greaterThan(80);
  });

  it("replays the execution-apis chain as the pristine engine does, to geth's state roots", () => {
    expect(report.chainBlocks).to.be.greaterThan(50);
    expect(report.chainProblems).to.deep.equal([]);
  });
});
