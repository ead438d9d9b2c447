// The node's view of its contract, typed by the generated OpenrpcDocument; the helpers behind it live in src/contract/.
import type { OpenrpcDocument } from '../generated/types.js';
import { loadContract as readContract } from './contract/document.js';

export { projectRoot } from './contract/root.js';

/** The OpenRPC document the node serves (rpc.discover) and is built from. */
export function loadContract(): OpenrpcDocument {
  return readContract() as OpenrpcDocument;
}
