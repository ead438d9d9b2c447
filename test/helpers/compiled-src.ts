// The node's compiled modules (dist/src beside the compiled specs), for specs about the code's
// shape: what a module imports and constructs once compiled.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const COMPILED_SRC = fileURLToPath(new URL('../../src/', import.meta.url));

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

export function compiledModules(): CompiledModule[] {
  return files(COMPILED_SRC).map((file) => {
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(/^(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/gm)].map(([, specifier]) =>
      relative(COMPILED_SRC, resolve(dirname(file), specifier!)),
    );
    return { path: relative(COMPILED_SRC, file), text, imports };
  });
}

/** A path's room: its top folder under src/, or the module itself at the top. */
export const roomOf = (path: string): string => (path.includes('/') ? path.slice(0, path.indexOf('/')) : path);
