import { getMerkleStateProof } from '@ethereumjs/statemanager';
import { bytesToBigInt, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import type { AccountProof } from '../../../generated/types.js';
import { CACHE_LIMITS, LruCache } from '../../caches.js';
import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { toRpcProof } from '../../format/proof.js';
import { toQuantity } from '../../format/quantity.js';
import { clientLimitExceeded, invalidParams, serverError } from '../../rpc/errors.js';
import { sharedResult } from '../../rpc/shared-results.js';
import type { Handlers, Services } from '../services.js';

/** The most slots one eth_getStorageValues may read, as geth allows. */
const MAX_STORAGE_VALUES = 1024;

type Deps = Pick<Services, 'chain' | 'pool' | 'pendingBlock'>;

/** A storage slot as a 32-byte key: clients send quantities (`0x0`) as often as full words. */
export function storageKey(slot: string): Uint8Array {
  const hex = slot.slice(2);
  return setLengthLeft(hexToBytes(`0x${hex.length % 2 === 1 ? `0${hex}` : hex}`), 32);
}

/** geth's echo of a requested storage key: 32-byte keys in lowercase, anything shorter as a quantity. */
function requestedKey(slot: string): string {
  const key = storageKey(slot);
  return slot.length === 66 ? bytesToHex(key) : toQuantity(bytesToBigInt(key));
}

export function stateMethods({ chain, pool, pendingBlock }: Deps): Pick<
  Handlers,
  'eth_getBalance' | 'eth_getCode' | 'eth_getStorageValues' | 'eth_getStorageAt' | 'eth_getTransactionCount' | 'eth_getProof'
> {
  const stateAt = async (ref: unknown) => {
    const block = await requireBlock(chain, ref as BlockRef | undefined, pendingBlock);
    return chain.state.at(chain.stateRootOf(block));
  };
  // A proof at a state root never changes (state edits and rewinds move a block to another root,
  // never a root to other contents): the few asked for last are kept, formatted and serialised.
  const proofs = new LruCache<string, AccountProof>(CACHE_LIMITS.proofs);
  const prove = async (address: string, keys: string[], stateRoot: Uint8Array): Promise<AccountProof> => {
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
  };
  return {
    eth_getBalance: async ([address, block]) => {
      const account = await (await stateAt(block)).getAccount(createAddressFromString(address));
      return toQuantity(account?.balance ?? 0n);
    },
    eth_getCode: async ([address, block]) => bytesToHex(await (await stateAt(block)).getCode(createAddressFromString(address))),
    eth_getStorageAt: async ([address, slot, block]) => {
      const value = await (await stateAt(block)).getStorage(createAddressFromString(address), storageKey(slot));
      return bytesToHex(setLengthLeft(value, 32));
    },
    eth_getTransactionCount: async ([address, block]) => {
      // Wallets ask for the `pending` count to pick their next nonce: it must count what the pool holds.
      if (block === 'pending') return toQuantity(await pool.pendingNonce(address.toLowerCase()));
      const account = await (await stateAt(block)).getAccount(createAddressFromString(address));
      return toQuantity(account?.nonce ?? 0n);
    },
    eth_getStorageValues: async ([requests, block]) => {
      const slots = Object.values(requests).reduce((total, keys) => total + keys.length, 0);
      if (slots > MAX_STORAGE_VALUES) throw clientLimitExceeded(`too many slots (max ${MAX_STORAGE_VALUES})`);
      if (slots === 0) throw invalidParams('empty request');
      const state = await stateAt(block);
      const values: Record<string, string[]> = {};
      for (const [address, keys] of Object.entries(requests)) {
        const account = createAddressFromString(address);
        values[account.toString()] = await Promise.all(keys.map(async (key) => bytesToHex(setLengthLeft(await state.getStorage(account, storageKey(key)), 32))));
      }
      return values;
    },
    eth_getProof: async ([address, keys, block]) => {
      if (chain.fork?.forkState.values !== undefined) {
        throw serverError("the fork's remote serves no eth_getProof, so this fork's state is read as plain values: its state roots are the node's own and prove nothing (anvil_nodeInfo's forkConfig.stateRoots is \"local\")");
      }
      const stateRoot = chain.proofRootOf(await requireBlock(chain, block as BlockRef | undefined, pendingBlock));
      const key = `${bytesToHex(stateRoot)}:${address.toLowerCase()}:${keys.join(',').toLowerCase()}`;
      let rpc = proofs.get(key);
      if (rpc === undefined) {
        rpc = sharedResult(await prove(address, keys, stateRoot));
        proofs.set(key, rpc);
      }
      return rpc;
    },
  };
}

