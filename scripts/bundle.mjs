// dist/bundle/: the compiled CLI (dist/src/cli-main.js) and everything it imports, packages included, bundled by
// esbuild into one file plus a chunk per lazily imported part (so what loads lazily still does). Node loads a
// module at a cost of its own (resolve, read, compile, link); ~350 of them took half of the start-up. dist/src/cli.js
// runs the bundle when it is current. Plain JavaScript: it runs after tsc, from `npm run build` and `npm start`.
//
// Left outside: native addons (they locate their binaries from their own directory) and what the code resolves at
// run time from a path: each method's validators (generated/validators/*.cjs, beside the bundle, where the loader
// looks for them: copied, or bundled with the few ajv runtime helpers one requires, so an installed node needs no
// ajv) and the playground (dist/playground/, served as files). The packages are taken in as installed, with the
// edits of patches/ that `npm ci` made to them: the bundle runs the code the tests run.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const NATIVE = ['classic-level', 'secp256k1', 'bufferutil', 'utf-8-validate'];

/**
 * Fails unless every edit of patches/ is in node_modules: patch-package applies one that is not yet (an install
 * with --ignore-scripts skipped them) and fails on one that no longer applies. A bundle is never built from
 * packages without their edits.
 */
function checkPatches() {
  const patchPackage = createRequire(import.meta.url).resolve('patch-package/index.js');
  const run = spawnSync(process.execPath, [patchPackage, '--error-on-fail', '--error-on-warn'], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) {
    process.stderr.write(run.stdout + run.stderr);
    throw new Error('the edits of patches/ are not in node_modules and do not apply (see above)');
  }
}

/** Writes dist/bundle/ afresh (whole or not at all: it is built beside it, then moved into place). */
export async function bundle() {
  checkPatches();
  const out = join(root, 'dist', 'bundle');
  const next = `${out}.next`;
  rmSync(next, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: { 'cli-main': 'dist/src/cli-main.js' },
    outdir: next,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: NATIVE,
    // CommonJS packages in an ES module bundle still call require() for Node's own modules.
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    sourcemap: 'linked',
    // V8 keeps each module's source text for as long as the module lives (lazy compilation,
    // Function.prototype.toString): without comments, indentation and redundant syntax the idle node
    // measured 0.5–2.2 MiB smaller in three side-by-side starts. Names stay, so stack traces still
    // name functions; `node --enable-source-maps` maps their positions back through the source maps.
    // Licence comments go to a .LEGAL.txt beside each file.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'external',
    metafile: true,
    logLevel: 'warning',
  });
  writeFileSync(join(next, 'packages.json'), JSON.stringify(packagesByFile(metafile), null, 1));
  await validators(join(root, 'dist', 'generated', 'validators'), join(next, 'validators'));
  rmSync(out, { recursive: true, force: true });
  renameSync(next, out);
}

/** Each method's validators into `out`: as generated, or with the package modules one requires bundled in. */
async function validators(from, out) {
  cpSync(from, out, { recursive: true });
  const requiring = readdirSync(from).filter((name) => name.endsWith('.cjs') && /\brequire\(/.test(readFileSync(join(from, name), 'utf8')));
  await build({
    entryPoints: requiring.map((name) => join(from, name)),
    outdir: out,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
}

/**
 * The packages each file of the bundle holds (file name → package names): what loading that file loads, as the
 * lazy-loading specs read it (test/helpers/module-log.ts).
 */
function packagesByFile(metafile) {
  const byFile = {};
  for (const [file, { inputs }] of Object.entries(metafile.outputs)) {
    if (!file.endsWith('.js')) continue;
    const names = Object.keys(inputs).map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1]);
    byFile[file.slice(file.lastIndexOf('/') + 1)] = [...new Set(names.filter((name) => name !== undefined))].sort();
  }
  return byFile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();
