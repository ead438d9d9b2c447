// The node's view of its contract, typed by the generated OpenrpcDocument. It reads the contract through
// shared/contract/, as the contract tools, the playground and the generator do.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenrpcDocument } from '../generated/types.js';
import { loadContract as readContract } from '../shared/contract/document.js';
import { projectRoot } from '../shared/contract/root.js';

export { projectRoot };

/** The OpenRPC document the node serves (rpc.discover) and is built from. */
export function loadContract(): OpenrpcDocument {
  return readContract() as OpenrpcDocument;
}

let version: string | undefined;

/** package.json's version: the one version of the node, its contract (info.version) and its SDKs. */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}
