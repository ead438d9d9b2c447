import { getMerkleStateProof } from '@ethereumjs/statemanager';
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import type { AccountProof } from '../../../generated/types.js';
import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import type { Chain } from '../../chain/chain.js';
import { toRpcProof } from '../../format/proof.js';
import { toQuantity } from '../../format/quantity.js';
import { serverError } from '../../rpc/errors.js';
import { requestedKey, storageKey } from '../storage-keys.js';
import type { Handlers, MethodServices } from '../services.js';

async function prove(chain: Chain, address: string, keys: string[], stateRoot: Uint8Array): Promise<AccountProof> {
  const state = await chain.state.at(stateRoot);
  const slots = keys.map(storageKey);
  // A fork brings the account and every slot asked for in one eth_getProof before the walks.
  await chain.fork?.forkState.prove(chain.fork.forkState.blockOf(stateRoot), createAddressFromString(address).bytes, slots);
  const proof = await getMerkleStateProof(state, createAddressFromString(address), slots);
  const rpc = toRpcProof(proof, keys.length > 0);
  if (rpc.storageProof === null) return rpc;
  // As geth answers: one entry per requested key, even for an absent account (whose storage trie is
  // empty: value 0, no nodes), naming the key as requested and the value as a quantity.
  rpc.storageProof = keys.map((key, i) => {
    const entry = proof.storageProof[i];
    return { key: requestedKey(key), value: toQuantity(BigInt(entry?.value ?? '0x0')), proof: entry?.proof ?? [] };
  });
  return rpc;
}

export function eth_getProof({ chain, pendingBlock, answers }: Pick<MethodServices, 'chain' | 'pendingBlock' | 'answers'>): Handlers['eth_getProof'] {
  return async ([address, keys, block]) => {
    if (chain.fork?.forkState.values !== undefined) {
      throw serverError("the fork's remote serves no eth_getProof, so this fork's state is read as plain values: its state roots are the node's own and prove nothing (anvil_nodeInfo's forkConfig.stateRoots is \"local\")");
    }
    const stateRoot = chain.proofRootOf(await requireBlock(chain, block as BlockRef | undefined, pendingBlock));
    // A proof at a state root never changes (state edits and rewinds move a block to another root,
    // never a root to other contents): it is kept under the root.
    return answers.answer('eth_getProof', bytesToHex(stateRoot), `${address.toLowerCase()}:${keys.join(',').toLowerCase()}`, () => prove(chain, address, keys, stateRoot));
  };
}
