// An installed evm-node runs the edited engine: the package ships the bundle built from the patched
// packages, and asks a consumer's install to run nothing it lacks (patch-package is a devDependency).
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; bin: Record<string, string> };

/** For each patch, the longest name its added code introduces that the pristine package's files do not hold. */
function patchNames(): { patch: string; name: string }[] {
  return readdirSync(join(root, 'patches'))
    .filter((file) => file.endsWith('.patch'))
    .map((patch) => {
      const text = readFileSync(join(root, 'patches', patch), 'utf8');
      const pkg = /^@ethereumjs\+([^+]+)\+/.exec(patch)![1]!;
      const pristine = [...new Set([...text.matchAll(/^\+\+\+ b\/node_modules\/@ethereumjs\/[^/]+\/(.+)$/gm)].map((m) => m[1]!))]
        .map((file) => readFileSync(join(root, 'node_modules', '@ethereumjs-pristine', pkg, file), 'utf8'))
        .join('\n');
      const added = text
        .split('\n')
        .filter((line) => line.startsWith('+') && !line.startsWith('+++') && !/^\+\s*(\/\/|\/?\*)/.test(line))
        .join('\n')
        .replace(/\/\/.*$/gm, '');
      const names = [...new Set(added.match(/[A-Za-z_$][\w$]{5,}/g) ?? [])].filter((name) => !pristine.includes(name));
      names.sort((a, b) => b.length - a.length);
      return { patch, name: names[0]! };
    });
}

describe('the packed evm-node', function () {
  this.timeout(120_000);

  it('runs no install script of its own on a consumer (they lack the devDependencies)', () => {
    for (const hook of ['preinstall', 'install', 'postinstall']) expect(manifest.scripts, hook).not.to.have.property(hook);
  });

  it('ships its bin and the bundle the bin runs', () => {
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' })) as { files: { path: string }[] }[];
    const files = new Set(pack!.files.map((f) => f.path));
    expect(files.has(manifest.bin['evm-node']!)).to.equal(true);
    expect(files.has('dist/bundle/cli-main.js')).to.equal(true);
  });

  it('bundles the edited @ethereumjs code: every patch is in the bundle', () => {
    const bundle = readdirSync(join(root, 'dist', 'bundle'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(root, 'dist', 'bundle', name), 'utf8'))
      .join('\n');
    const names = patchNames();
    expect(names.length).to.be.greaterThan(5);
    for (const { patch, name } of names) expect(bundle.includes(name), `${patch}: ${name}`).to.equal(true);
  });
});
