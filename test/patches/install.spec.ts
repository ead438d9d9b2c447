// The edits of patches/ are made by the install itself, and an install they no longer fit fails loudly.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const patchPackage = createRequire(import.meta.url).resolve('patch-package/index.js');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };

/** Runs the install's patch step, as `npm ci` runs it, in `cwd`. */
function patchStep(cwd: string): { status: number | null; output: string } {
  const [, ...flags] = manifest.scripts.prepare!.split(' && ')[0]!.split(' ');
  const run = spawnSync(process.execPath, [patchPackage, ...flags], { cwd, encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

/** Runs the patch step in a project holding the unedited @ethereumjs/rlp (as `version`, its file edited by `change`) and our patch of it. */
function patchProject(version: string, change: (source: string) => string = (source) => source): { status: number | null; output: string; index: string } {
  const dir = mkdtempSync(join(tmpdir(), 'evm-node-patch-'));
  const rlp = join(dir, 'node_modules', '@ethereumjs', 'rlp');
  cpSync(join(root, 'node_modules', '@ethereumjs-pristine', 'rlp'), rlp, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(rlp, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(join(rlp, 'package.json'), JSON.stringify({ ...pkg, version }));
  const index = join(rlp, 'dist', 'esm', 'index.js');
  writeFileSync(index, change(readFileSync(index, 'utf8')));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', dependencies: { '@ethereumjs/rlp': version } }));
  mkdirSync(join(dir, 'patches'));
  cpSync(join(root, 'patches', '@ethereumjs+rlp+10.1.3.patch'), join(dir, 'patches', '@ethereumjs+rlp+10.1.3.patch'));
  try {
    return { ...patchStep(dir), index: readFileSync(index, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('patches/ at install', () => {
  it('pins every @ethereumjs package to one exact version, everywhere npm installs it', () => {
    // Build inputs: the bundle an installed node runs holds them (package.json's dependencies are what runs outside it).
    const versions = Object.entries(manifest.devDependencies).filter(([name]) => name.startsWith('@ethereumjs/'));
    expect(versions.length).to.be.greaterThan(5);
    for (const [name, version] of versions) expect(version, name).to.match(/^\d+\.\d+\.\d+$/);
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; name?: string }> };
    const installed = Object.entries(lock.packages).filter(([path]) => /node_modules\/@ethereumjs(-pristine)?\//.test(path));
    expect(new Set(installed.map(([, entry]) => entry.version))).to.deep.equal(new Set([versions[0]![1]]));
  });

  it('is run by the install (prepare, before the build), and finds every patch made in node_modules', () => {
    expect(manifest.scripts.prepare).to.equal('patch-package --error-on-fail --error-on-warn && npm run -s build');
    const { status, output } = patchStep(root);
    expect(status, output).to.equal(0);
    for (const file of readdirSync(join(root, 'patches')).filter((name) => name.endsWith('.patch'))) {
      const [, name, version] = /^(.+)\+([^+]+)\.patch$/.exec(file)!;
      expect(output).to.include(`${name!.replace('+', '/')}@${version} ✔`);
    }
  });

  it('makes the edit in an unedited package of the version the patch names', () => {
    const { status, output, index } = patchProject('10.1.3');
    expect(status, output).to.equal(0);
    expect(index).to.include('evm-node:');
  });

  it('fails the install when the patch no longer applies to the package', () => {
    const { status, output } = patchProject('10.1.3', (source) => source.replace('export function encode(input) {', 'export function encode(input, options) {'));
    expect(status).to.equal(1);
    expect(output).to.include('@ethereumjs/rlp');
  });

  it('fails the install when the package is of another version than the patch was made for', () => {
    const { status, output } = patchProject('10.1.4');
    expect(status).to.equal(1);
    expect(output).to.include('10.1.4');
  });
});
