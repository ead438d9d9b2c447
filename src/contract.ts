import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { OpenrpcDocument } from '../generated/types.js';

/** The project root: where package.json and openrpc.json live, from src/ or from dist/src/. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      readFileSync(join(dir, 'openrpc.json'));
      return dir;
    } catch {
      dir = dirname(dir);
    }
  }
  throw new Error('cannot find openrpc.json above ' + dirname(fileURLToPath(import.meta.url)));
}

/** The OpenRPC document the node serves (rpc.discover) and is built from. */
export function loadContract(): OpenrpcDocument {
  return JSON.parse(readFileSync(join(projectRoot(), 'openrpc.json'), 'utf8'));
}
