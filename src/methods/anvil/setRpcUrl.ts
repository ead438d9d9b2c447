import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

export function anvil_setRpcUrl({ chain, node }: Pick<MethodServices, 'chain' | 'node'>): Handlers['anvil_setRpcUrl'] {
  return async ([url]) => {
    if (!/^(https?|wss?):\/\//i.test(url)) throw invalidParams(`invalid argument 0: an http(s):// or ws(s):// URL, got ${JSON.stringify(url)}`);
    // The same fork block read from another endpoint of the same chain; a node that forks nothing forks the URL's head.
    await node.reset(undefined, { url, blockNumber: chain.fork?.info.number });
    return null;
  };
}
