// The contract diff over the contract's own git history: every pair of consecutive commits that touched openrpc.json,
// and the first commit against today's contract. Needs the history: in a shallow clone (some CI checkouts) the
// suite says so and skips; the version gate and the changelog rely on contract/released/ instead, never on git.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { requiredBump, type Change } from '../../tools/contract/diff/change.js';
import { diffContracts } from '../../tools/contract/diff/diff.js';
import { readContractSource } from '../../tools/contract/source.js';
import { projectRoot } from '../../shared/contract/root.js';
import { readDocument } from '../../shared/contract/document.js';

const root = projectRoot();
const FIRST_CONTRACT_COMMIT = '36f144a';

function git(...args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

describe('contract diff on the contract’s git history', function () {
  this.timeout(60_000);
  let commits: string[] = [];

  before(function () {
    const shallow = git('rev-parse', '--is-shallow-repository');
    if (shallow === undefined || shallow === 'true') {
      console.warn(`      skipped: ${shallow === undefined ? 'not a git checkout' : 'a shallow clone'}; the history is not here`);
      return this.skip();
    }
    commits = (git('log', '--reverse', '--format=%H', '--', 'openrpc.json') ?? '').split('\n').filter(Boolean);
  });

  it('diffs every pair of consecutive commits of openrpc.json, each change complete and the undo symmetric', function () {
    expect(commits.length, 'commits that touched openrpc.json').to.be.greaterThan(1);
    for (let i = 1; i < commits.length; i++) {
      const before = readContractSource(commits[i - 1]!, root).doc;
      const after = readContractSource(commits[i]!, root).doc;
      const forward = diffContracts(before, after);
      const backward = diffContracts(after, before);
      for (const c of [...forward, ...backward]) {
        expect(c.severity).to.be.oneOf(['breaking', 'non-breaking', 'informational']);
        expect(c.rule).to.match(/^[a-z-]+$/);
        expect(c.path).to.not.equal('');
        expect(c.message).to.not.equal('');
      }
      const count = (changes: Change[], rule: string) => changes.filter((c) => c.rule === rule).length;
      expect(count(forward, 'method-added'), commits[i]).to.equal(count(backward, 'method-removed'));
      expect(count(forward, 'error-added'), commits[i]).to.equal(count(backward, 'error-removed'));
      expect(count(forward, 'example-added'), commits[i]).to.equal(count(backward, 'example-removed'));
      expect(diffContracts(after, after)).to.deep.equal([]);
    }
  });

  it('classifies what changed from the first contract to today’s', function () {
    if (git('cat-file', '-e', `${FIRST_CONTRACT_COMMIT}^{commit}`) === undefined) return this.skip();
    const first = readContractSource(FIRST_CONTRACT_COMMIT, root);
    expect(first.label).to.equal(`${FIRST_CONTRACT_COMMIT}:openrpc.json`);
    const changes = diffContracts(first.doc, readDocument(`${root}/openrpc.json`));
    const found = (method: string, rule: string, path: string) => changes.find((c) => c.method === method && c.rule === rule && c.path === path);
    // Receipts of pre-Byzantium blocks carry `root` instead of `status`, so `status` became optional.
    expect(found('eth_getTransactionReceipt', 'result-widened', 'result.status')?.message).to.include('no longer required');
    expect(found('eth_getBlockReceipts', 'result-widened', 'result[*].status')).to.not.equal(undefined);
    // The log query limits (-32005) came with --logs-max-blocks and --logs-max-results.
    expect(found('eth_getLogs', 'error-added', 'errors[-32005]')?.severity).to.equal('breaking');
    expect(found('eth_getBlockByNumber', 'example-added', 'examples["fixture block 1"]')?.severity).to.equal('informational');
    expect(changes.filter((c) => c.rule === 'method-removed')).to.deep.equal([]);
    // Methods came since (the dev-node test methods and signing, x-since 1.0.0): additions, never breaking.
    const added = changes.filter((c) => c.rule === 'method-added');
    expect(added.every((c) => c.severity === 'non-breaking')).to.equal(true);
    const current = readDocument(`${root}/openrpc.json`) as { methods: { name: string; 'x-since'?: string }[] };
    expect(added.map((c) => c.method).sort()).to.deep.equal(current.methods.filter((m) => m['x-since'] !== '0.1.0').map((m) => m.name).sort());
    expect(requiredBump(changes)).to.equal('major');
  });
});
