// `evm-node contract diff|lint|release`: in-process through runContractCommand, and once through the real bin.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ContractUsageError, runContractCommand } from '../../tools/contract/cli.js';
import { contractVersion } from '../../tools/contract/gate.js';
import type { JsonObject } from '../../shared/contract/json.js';
import { readReleases, writeRelease } from '../../tools/contract/released.js';
import { projectRoot } from '../../shared/contract/root.js';

type Json = JsonObject;
const root = projectRoot();
const CLI = path.join(root, 'dist', 'src', 'cli.js');
const contract = JSON.parse(readFileSync(path.join(root, 'openrpc.json'), 'utf8')) as Json;

function run(...argv: string[]): { status: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const status = runContractCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { status, stdout, stderr };
}

describe('evm-node contract (command line)', function () {
  let dir: string;
  let base: string;
  let added: string;
  let reworded: string;
  let removed: string;

  before(function () {
    dir = mkdtempSync(path.join(tmpdir(), 'evm-node-contract-'));
    const write = (name: string, edit: (d: Json) => void) => {
      const doc = structuredClone(contract);
      edit(doc);
      const file = path.join(dir, name);
      writeFileSync(file, JSON.stringify(doc, null, 2));
      return file;
    };
    base = write('base.json', () => undefined);
    added = write('added.json', (d) => {
      const m = structuredClone((d.methods as Json[])[0]!);
      m.name = 'eth_extra';
      (d.methods as Json[]).push(m);
    });
    reworded = write('reworded.json', (d) => ((d.methods as Json[])[0]!.summary = 'Reworded.'));
    removed = write('removed.json', (d) => (d.methods as Json[]).splice(0, 1));
  });

  after(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  it('diff prints every change as text, naming both sides and the bump they need', function () {
    const { status, stdout } = run('diff', base, removed);
    expect(status).to.equal(0);
    const version = contractVersion(contract);
    expect(stdout.split('\n')[0]).to.equal(`contract diff: ${base} (${version}) → ${removed} (${version})`);
    expect(stdout).to.match(/^1 breaking, 0 non-breaking, 0 informational: a major version bump/m);
    expect(stdout).to.include(`Breaking (1)\n  ${(contract.methods as Json[])[0]!.name as string} name\n    method removed`);
  });

  it('diff answers JSON for tools and Markdown for a pull request', function () {
    const json = JSON.parse(run('diff', '--base', base, '--head', added, '--format', 'json').stdout) as Json;
    expect(json).to.deep.include({ bump: 'minor', counts: { breaking: 0, 'non-breaking': 1, informational: 0 } });
    expect((json.changes as Json[])[0]).to.deep.equal({ severity: 'non-breaking', rule: 'method-added', method: 'eth_extra', path: 'name', message: `method added: ${(contract.methods as Json[])[0]!.summary as string}` });
    const markdown = run('diff', base, added, '--format', 'markdown').stdout;
    expect(markdown).to.match(/^### API contract diff: /);
    expect(markdown).to.include('| `eth_extra` | `name` | method added');
  });

  it('diff folds a change repeated across methods into one line naming the count and the methods', function () {
    const file = path.join(dir, 'renamed-param.json');
    const doc = structuredClone(contract);
    const takesBlock = (doc.methods as Json[]).filter((m) => (m.params as Json[]).some((p) => p.name === 'block')).map((m) => m.name as string).sort();
    for (const m of doc.methods as Json[]) for (const p of m.params as Json[]) if (p.name === 'block') p.description = 'Reworded everywhere.';
    writeFileSync(file, JSON.stringify(doc));
    const { stdout } = run('diff', base, file);
    expect(takesBlock.length).to.be.greaterThan(2);
    expect(stdout).to.include(`Informational (${takesBlock.length})\n  params.block in ${takesBlock.length} methods: ${takesBlock.join(', ')}\n    `);
    expect(stdout.match(/params\.block/g)).to.have.length(1);
    const markdown = run('diff', base, file, '--format', 'markdown').stdout;
    expect(markdown).to.include(`| ${takesBlock.length} methods: ${takesBlock.map((m) => `\`${m}\``).join(', ')} | \`params.block\` |`);
    // JSON, for tools, keeps one entry per method.
    expect((JSON.parse(run('diff', base, file, '--format', 'json').stdout) as { changes: unknown[] }).changes).to.have.length(takesBlock.length);
  });

  it('refuses a file that is not an OpenRPC document, as a usage error', function () {
    const file = path.join(dir, 'not-openrpc.json');
    writeFileSync(file, '{"foo":1}');
    expect(() => run('diff', base, file)).to.throw(ContractUsageError, `${file} is not an OpenRPC document: it has no "openrpc" version`);
    expect(() => run('lint', file)).to.throw(ContractUsageError, 'is not an OpenRPC document');
    const bin = spawnSync(process.execPath, [CLI, 'contract', 'diff', file, base], { encoding: 'utf8' });
    expect(bin.status).to.equal(2);
    expect(bin.stdout).to.equal('');
    expect(bin.stderr).to.equal(`evm-node: ${file} is not an OpenRPC document: it has no "openrpc" version, no "info" object, no "methods" list\n`);
  });

  it('--fail-on breaking fails only on a breaking change, --fail-on any on any change', function () {
    expect(run('diff', base, removed, '--fail-on', 'breaking').status).to.equal(1);
    expect(run('diff', base, added, '--fail-on', 'breaking').status).to.equal(0);
    expect(run('diff', base, reworded, '--fail-on', 'any').status).to.equal(1);
    expect(run('diff', base, base, '--fail-on', 'any').status).to.equal(0);
  });

  it('diff defaults to the last released contract against openrpc.json', function () {
    const last = readReleases(root).at(-1)!;
    expect(run('diff').stdout.split('\n')[0]).to.equal(`contract diff: ${last.file} (${last.version}) → openrpc.json (${contractVersion(contract)})`);
  });

  it('diff reads a git revision of openrpc.json', function () {
    try {
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: 'ignore' });
    } catch {
      return this.skip();
    }
    const { status, stdout } = run('diff', 'HEAD', base);
    expect(status).to.equal(0);
    expect(stdout.split('\n')[0]).to.match(/^contract diff: HEAD:openrpc\.json \(/);
  });

  it('names a missing base, a bad flag or an unknown command', function () {
    const missing = run('diff', path.join(dir, 'nope.json'), base);
    expect(missing.status).to.equal(1);
    expect(missing.stderr).to.match(/nope\.json is neither a file nor a git revision/);
    expect(() => run('diff', base, base, '--format', 'yaml')).to.throw(ContractUsageError, '--format must be text, markdown, json, got "yaml"');
    expect(() => run('diff', base, base, '--fail-on', 'some')).to.throw(ContractUsageError, '--fail-on must be breaking or any');
    expect(() => run('frobnicate')).to.throw(ContractUsageError, 'unknown contract command "frobnicate"');
  });

  it('lint passes openrpc.json and names the rule a broken file breaks', function () {
    const ok = run('lint');
    expect(ok.status, ok.stdout).to.equal(0);
    expect(ok.stdout).to.match(/lint passed\n$/);
    const broken = structuredClone(contract);
    delete (broken.methods as Json[])[0]!.summary;
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify(broken));
    const lint = run('lint', file);
    expect(lint.status).to.equal(1);
    expect(lint.stdout).to.include(`${file}: ${(contract.methods as Json[])[0]!.name as string} summary: has no summary [summary]`);
  });

  it('lint refuses a contract with a $ref cycle, which the reference OpenRPC tools cannot load', function () {
    const cyclic = structuredClone(contract);
    const frame = ((cyclic.components as Json).schemas as Json).CallFrame as Json;
    ((frame.properties as Json).calls as Json).items = { $ref: '#/components/schemas/CallFrame' };
    const file = path.join(dir, 'cyclic.json');
    writeFileSync(file, JSON.stringify(cyclic));
    const lint = run('lint', file);
    expect(lint.status).to.equal(1);
    expect(lint.stdout).to.include(`${file}: components.schemas.CallFrame: $ref cycle #/components/schemas/CallFrame → #/components/schemas/CallFrame: `);
    expect(lint.stdout).to.match(/\[ref-cycle\]\n/);
  });

  it('release refuses a version that is already released', function () {
    const version = contractVersion(contract);
    if (!readReleases(root).some((r) => r.version === version)) return this.skip(); // would cut a real release
    const { status, stderr } = run('release');
    expect(status).to.equal(1);
    expect(stderr).to.include(`${version} is already released`);
  });

  it('a release is openrpc.json copied byte for byte, never overwritten', function () {
    const project = mkdtempSync(path.join(tmpdir(), 'evm-node-release-'));
    try {
      writeFileSync(path.join(project, 'openrpc.json'), readFileSync(path.join(root, 'openrpc.json')));
      expect(writeRelease(project, '9.9.9')).to.equal('contract/released/openrpc-9.9.9.json');
      expect(readFileSync(path.join(project, 'contract/released/openrpc-9.9.9.json'), 'utf8')).to.equal(readFileSync(path.join(root, 'openrpc.json'), 'utf8'));
      expect(() => writeRelease(project, '9.9.9')).to.throw('9.9.9 is already released');
      expect(readReleases(project).map((r) => r.version)).to.deep.equal(['9.9.9']);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('is served by the evm-node bin, with exit status 1 for --fail-on and 2 for a usage error', function () {
    const diff = spawnSync(process.execPath, [CLI, 'contract', 'diff', base, removed, '--fail-on', 'breaking', '--format', 'json'], { encoding: 'utf8' });
    expect(diff.status).to.equal(1);
    expect((JSON.parse(diff.stdout) as Json).bump).to.equal('major');
    const usage = spawnSync(process.execPath, [CLI, 'contract', 'diff', '--format', 'yaml'], { encoding: 'utf8' });
    expect(usage.status).to.equal(2);
    expect(usage.stderr).to.equal('evm-node: --format must be text, markdown, json, got "yaml"\n');
  });
});
