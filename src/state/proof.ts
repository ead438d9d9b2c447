import type { Proof } from '@ethereumjs/common';
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { bigIntToHex, bytesToHex, createAccountFromRLP, KECCAK256_NULL_S, KECCAK256_RLP_S, type Address, type PrefixedHexString } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { toHex } from '../codec/hex.js';
import { nativeCrypto } from '../crypto/native.js';

const hash = nativeCrypto.keccak256 ?? keccak256;

/** The nodes on the path to `key` in a key-hashing trie, and the value at its end (undefined when absent). */
async function walk(trie: MerklePatriciaTrie, key: Uint8Array): Promise<{ nodes: PrefixedHexString[]; value?: Uint8Array }> {
  const { node, remaining, stack } = await trie.findPath(hash(key));
  const nodes = stack.map((step) => toHex(step.serialize()));
  return { nodes, value: node !== null && remaining.length === 0 ? (node.value() ?? undefined) : undefined };
}

/**
 * An EIP-1186 proof of an account and some of its storage slots in `state`, in @ethereumjs's
 * shape. One walk per key gives both the path and the value at its end, where
 * @ethereumjs/statemanager's getMerkleStateProof walks for the path and reads the value again.
 */
export async function stateProof(state: MerkleStateManager, address: Address, slots: Uint8Array[]): Promise<Proof> {
  const trie = state['_trie'];
  const { nodes: accountProof, value } = await walk(trie, address.bytes);
  if (value === undefined) {
    return { address: address.toString(), balance: '0x0', codeHash: KECCAK256_NULL_S, nonce: '0x0', storageHash: KECCAK256_RLP_S, accountProof, storageProof: [] };
  }
  const account = createAccountFromRLP(value);
  const storage = trie.shallowCopy(false);
  storage.root(account.storageRoot);
  const storageProof: Proof['storageProof'] = [];
  for (const slot of slots) {
    const { nodes, value: stored } = await walk(storage, slot);
    // Slots hold their value RLP-encoded; an absent one reads as zero.
    const word = stored === undefined ? '0x' : bytesToHex(RLP.decode(stored) as Uint8Array);
    storageProof.push({ key: bytesToHex(slot), value: word === '0x' ? '0x0' : word, proof: nodes });
  }
  return {
    address: address.toString(),
    balance: bigIntToHex(account.balance),
    codeHash: bytesToHex(account.codeHash),
    nonce: bigIntToHex(account.nonce),
    storageHash: bytesToHex(account.storageRoot),
    accountProof,
    storageProof,
  };
}
