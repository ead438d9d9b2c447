// Imported into a child node with `node --import` (see runCli's `node` option): names each package
// the process loads, one line on stderr as its first module loads, so a spec can tell what a start
// or a request made the node load. A file of the CLI's bundle loads the packages it holds, as the
// bundle's packages.json lists them (scripts/bundle.mjs); loading the bundle's entry is a line too, and so is
// each package loaded from its own files (not from the bundle).
import { register } from 'node:module';

const hooks = `
import { readFileSync } from 'node:fs';
import { dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
const seen = new Set();
const bundles = new Map();
const fromNodeModules = new Set();
function packagesOf(url) {
  const name = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url)?.[1];
  if (name !== undefined && !fromNodeModules.has(name)) {
    fromNodeModules.add(name);
    process.stderr.write('loaded from node_modules ' + name + '\\n');
  }
  if (name !== undefined) return [name];
  if (!/\\/dist\\/bundle\\/[^/]+\\.js$/.test(url)) return [];
  const file = fileURLToPath(url);
  const dir = dirname(file);
  if (!bundles.has(dir)) bundles.set(dir, JSON.parse(readFileSync(dir + '/packages.json', 'utf8')));
  return bundles.get(dir)[basename(file)] ?? [];
}
export async function load(url, context, next) {
  if (/\\/dist\\/bundle\\/cli-main\\.js$/.test(url)) process.stderr.write('loaded the bundle\\n');
  for (const name of packagesOf(url)) {
    if (seen.has(name)) continue;
    seen.add(name);
    process.stderr.write('loaded package ' + name + '\\n');
  }
  return next(url, context);
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);

/** The file to pass to `node --import`. */
export const MODULE_LOG = import.meta.url;
