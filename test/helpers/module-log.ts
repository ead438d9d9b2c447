// Imported into a child node with `node --import` (see runCli's `node` option): names each package
// the process loads, one line on stderr as its first module loads, so a spec can tell what a start
// or a request made the node load.
import { register } from 'node:module';

const hooks = `
const seen = new Set();
export async function load(url, context, next) {
  const name = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url)?.[1];
  if (name !== undefined && !seen.has(name)) {
    seen.add(name);
    process.stderr.write('loaded package ' + name + '\\n');
  }
  return next(url, context);
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);

/** The file to pass to `node --import`. */
export const MODULE_LOG = import.meta.url;
