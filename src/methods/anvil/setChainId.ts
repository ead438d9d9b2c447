import { invalidParams } from '../../rpc/errors.js';
import { MAX_CHAIN_ID, refuseWhileImporting } from '../chain-replacement.js';
import type { Handlers, MethodServices } from '../services.js';

export function anvil_setChainId({ chain, node, sync }: Pick<MethodServices, 'chain' | 'node' | 'sync'>): Handlers['anvil_setChainId'] {
  return async ([chainId]) => {
    refuseWhileImporting({ sync });
    if (chain.fork !== undefined) throw invalidParams(`invalid argument 0 (chainId): a forked chain keeps its remote's chain id (${chain.commons.base.chainId()}); anvil_reset with forking, or --chain-id at start, gives another`);
    const id = BigInt(chainId);
    if (id < 1n || id > MAX_CHAIN_ID) throw invalidParams(`invalid argument 0 (chainId): ${id} is not between 1 and ${MAX_CHAIN_ID}`);
    await node.setChainId(id);
    return null;
  };
}
