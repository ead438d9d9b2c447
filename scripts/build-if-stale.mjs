// `npm start`'s build step (scripts/start.mjs): runs the TypeScript build only when a source
// changed since the last clean one. Even a build with nothing to do takes tsc seconds (it loads the compiler and hashes
// every source); this takes milliseconds. Plain JavaScript, because it runs before any build.
//
// The last build is dist/.tsbuildinfo (tsconfig's tsBuildInfoFile): it is fresh when it is newer
// than tsconfig.json, every file and directory under tsconfig's `include` and playground/ (a deleted or
// renamed file changes its directory's time), patches/ and the lock file (the packages the bundle takes in),
// records no errors, and the bundle is newer still. tsc leaves it alone when no source's content
// changed, so after a clean build it is dated to when that build started.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const config = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
const buildInfo = join(root, config.compilerOptions.tsBuildInfoFile);
const bundleEntry = join(root, 'dist', 'bundle', 'cli-main.js');
const inputs = [join(root, 'tsconfig.json'), join(root, 'patches'), join(root, 'package-lock.json'), join(root, 'playground'), ...config.include.map((dir) => join(root, dir))];

function lastBuild() {
  try {
    const info = JSON.parse(readFileSync(buildInfo, 'utf8'));
    // Files with type errors are listed with their diagnostics; a build with errors is not a build.
    const clean = !info.errors && !(info.semanticDiagnosticsPerFile ?? []).some(Array.isArray) && info.affectedFilesPendingEmit === undefined;
    return clean ? statSync(buildInfo).mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `path` (a file or a directory, walked) changed after `time`. */
function changedSince(path, time) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return false;
  if (stat.mtimeMs > time) return true;
  if (!stat.isDirectory()) return false;
  return readdirSync(path).some((name) => changedSince(join(path, name), time));
}

/** Builds when a source changed since the last clean build, or the bundle is missing or older; false when the build failed. */
export function buildIfStale() {
  const built = lastBuild();
  const bundled = statSync(bundleEntry, { throwIfNoEntry: false })?.mtimeMs;
  const stale = built === undefined || bundled === undefined || bundled < built || inputs.some((path) => changedSince(path, built));
  if (!stale) return true;
  const started = new Date();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const { status } = spawnSync(process.execPath, [tsc, '-p', root], { stdio: 'inherit' });
  if (status !== 0 || lastBuild() === undefined) return false;
  // The playground, a browser app of its own (playground/tsconfig.json), which the node serves.
  if (spawnSync(process.execPath, [tsc, '-p', join(root, 'playground')], { stdio: 'inherit' }).status !== 0) return false;
  utimesSync(buildInfo, started, started);
  // The bundle the CLI runs (see bundle.mjs); the CLI refuses to start without it.
  return spawnSync(process.execPath, [join(root, 'scripts', 'bundle.mjs')], { stdio: 'inherit' }).status === 0;
}
