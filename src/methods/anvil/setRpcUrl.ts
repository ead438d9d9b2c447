import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

export function anvil_setRpcUrl({ node }: Pick<MethodServices, 'node'>): Handlers['anvil_setRpcUrl'] {
  return async ([url]) => {
    if (!/^(https?|wss?):\/\//i.test(url)) throw invalidParams(`invalid argument 0: an http(s):// or ws(s):// URL, got ${JSON.stringify(url)}`);
    await node.setRpcUrl(url);
    return null;
  };
}
