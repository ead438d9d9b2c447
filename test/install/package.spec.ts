// The package is ready to publish: a name, a licence with its text, the Node it needs, and in the tarball only
// what an installed node runs (its bin, the bundle, the contract it serves, the playground's files) with the few
// packages the bundle leaves outside (native addons) bundled in, so installing it fetches nothing.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { described, npmFor } from '../helpers/npm.js';
import { projectRoot } from '../../shared/contract/root.js';

const root = projectRoot();

interface Manifest {
  name: string;
  private?: boolean;
  license: string;
  engines: { node: string };
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  bundleDependencies: string[];
  optionalDependencies?: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;


/** The packages the bundle loads from node_modules at run time: what it imports or requires by a bare name. */
function packagesTheBundleLoads(): string[] {
  const bundle = join(root, 'dist', 'bundle');
  const text = readdirSync(bundle)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(join(bundle, name), 'utf8'))
    .join('\n');
  const name = /(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w./-]+)?/.source;
  const specifiers = [...text.matchAll(new RegExp(`(?:\\bfrom\\s*|\\bimport\\(\\s*|\\brequire\\d*\\(\\s*)"(${name})"`, 'g'))].map(([, specifier]) => specifier!);
  const packages = specifiers.filter((s) => !s.startsWith('node:') && !builtinModules.includes(s)).map((s) => s.split('/').slice(0, s.startsWith('@') ? 2 : 1).join('/'));
  return [...new Set(packages)].sort();
}

describe('the package, ready to publish', function () {
  this.timeout(120_000);
  /** The files `npm pack` would put in the tarball, from npm itself. */
  let files: string[];

  before(async function () {
    const npm = npmFor(this, 'test/install/package.spec.ts');
    const pack = await npm('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, timeoutMs: 60_000 });
    expect(pack.status, described(pack)).to.equal(0);
    files = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
  });

  it('is named, public, under the MIT licence with its text, and says which Node it needs', () => {
    expect(manifest.name).to.equal('evm-node');
    expect(manifest.private).to.equal(undefined);
    expect(manifest.license).to.equal('MIT');
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).to.match(/^MIT License\n/);
    expect(manifest.engines.node).to.match(/^>=20(\.\d+)*$/);
  });

  it("packs only what an installed node runs: the bin, the bundle, the contract, the playground's files, the bundled addons", () => {
    const allowed = [
      /^package\.json$/,
      /^README\.md$/,
      /^LICENSE$/,
      /^openrpc\.json$/,
      /^dist\/src\/(cli|memory-tuning)\.js$/,
      /^dist\/bundle\/[^/]+\.(js|json|LEGAL\.txt)$/,
      /^dist\/bundle\/validators\/[\w.]+\.cjs$/,
      /^dist\/playground\/[\w-]+\.js$/,
      /^dist\/shared\/contract\/(json|refs)\.js$/,
      /^playground\/(index\.html|style\.css)$/,
      /^node_modules\//,
    ];
    expect(files.filter((file) => !allowed.some((pattern) => pattern.test(file)))).to.deep.equal([]);
    for (const needed of [manifest.bin['evm-node']!, 'dist/bundle/cli-main.js', 'openrpc.json', 'LICENSE', 'playground/index.html', 'dist/playground/app.js']) {
      expect(files, needed).to.include(needed);
    }
    const bundled = new Set(files.filter((file) => file.startsWith('node_modules/')).map((file) => file.split('/').slice(1, file.startsWith('node_modules/@') ? 3 : 2).join('/')));
    for (const dependency of Object.keys(manifest.dependencies)) expect(bundled.has(dependency), dependency).to.equal(true);
  });

  it('depends on exactly the packages the bundle leaves outside, and bundles them all', () => {
    // ws's optional speed-ups, which it requires in a try and goes without.
    const optional = new Set(['bufferutil', 'utf-8-validate']);
    expect(packagesTheBundleLoads().filter((name) => !optional.has(name))).to.deep.equal(Object.keys(manifest.dependencies).sort());
    expect([...manifest.bundleDependencies].sort()).to.deep.equal(Object.keys(manifest.dependencies).sort());
    for (const dependency of manifest.bundleDependencies) expect(existsSync(join(root, 'node_modules', dependency)), dependency).to.equal(true);
  });
});
