import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root: the nearest directory holding both package.json and openrpc.json above `start` (by default this
 * module's directory, so it works from src/, dist/src/ and scripts/ alike).
 */
export function projectRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'openrpc.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no directory with package.json and openrpc.json above ${start}`);
    dir = parent;
  }
}
