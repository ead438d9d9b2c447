// The node's compiled modules (dist/src beside the compiled specs), for specs about the code's
// shape: what a module imports and constructs once compiled.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled project (dist/), and in it the node's modules (dist/src/). */
export const COMPILED = fileURLToPath(new URL('../../', import.meta.url));
export const COMPILED_SRC = join(COMPILED, 'src');

export interface CompiledModule {
  /** path under src/, e.g. `methods/eth/getProof.js` */
  path: string;
  text: string;
  /** the modules it imports or re-exports statically, as paths under src/ */
  imports: string[];
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

/** The compiled modules under `dir` (by default the node's), their paths and imports relative to `base` (by default `dir`). */
export function compiledModules(dir: string = COMPILED_SRC, base: string = dir): CompiledModule[] {
  return files(dir).map((file) => {
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(/^(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/gm)].map(([, specifier]) =>
      relative(base, resolve(dirname(file), specifier!)),
    );
    return { path: relative(base, file), text, imports };
  });
}

/** A path's room: its top folder under src/, or the module itself at the top. */
export const roomOf = (path: string): string => (path.includes('/') ? path.slice(0, path.indexOf('/')) : path);
