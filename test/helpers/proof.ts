// Checks an eth_getProof answer the way a light client would: every node hashed back to the trusted
// root (the block's stateRoot, then the account's storageHash), and the proven values compared with
// what the answer claims. Nothing here trusts the node.
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToBytes, bytesToBigInt, bytesToHex, hexToBytes, KECCAK256_NULL_S, KECCAK256_RLP_S, setLengthLeft, type PrefixedHexString } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import type { AccountProof, StorageProof } from '../../generated/types.js';

const bytes = (hex: string) => hexToBytes(hex as PrefixedHexString);

export class ProofError extends Error {
  override name = 'ProofError';
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new ProofError(message);
}

/** The value `nodes` prove under keccak256(`key`) in the trie whose root is `root`; null proves absence. */
async function provenValue(root: string, key: Uint8Array, nodes: string[]): Promise<Uint8Array | null> {
  // An empty trie has no nodes at all: only absence can be proven, by an empty proof.
  if (nodes.length === 0) {
    check(root === KECCAK256_RLP_S, `an empty proof proves nothing under the non-empty root ${root}`);
    return null;
  }
  check(bytesToHex(keccak256(bytes(nodes[0]))) === root, `the first proof node does not hash to the root ${root}`);
  try {
    return await verifyMerkleProof(keccak256(key), nodes.map(bytes), { root: bytes(root), useKeyHashing: false });
  } catch (error) {
    throw new ProofError(`the proof does not verify against ${root}: ${(error as Error).message}`);
  }
}

/** An RLP integer as the trie stores it (no leading zeros, zero as the empty string). */
const rlpInteger = (value: Uint8Array) => (value.length === 0 ? 0n : bytesToBigInt(value));

/** Verifies the account part of `proof` against `stateRoot`; throws a ProofError naming the first fault. */
export async function verifyAccountProof(proof: AccountProof, stateRoot: string): Promise<void> {
  const value = await provenValue(stateRoot, bytes(proof.address), proof.accountProof);
  if (value === null) {
    // Absent: geth and ethereumjs answer the fields of an empty account.
    check(BigInt(proof.nonce) === 0n && BigInt(proof.balance) === 0n, 'an absent account is claimed to have a nonce or a balance');
    check(proof.storageHash === KECCAK256_RLP_S, `an absent account is claimed to have storage root ${proof.storageHash}`);
    check(proof.codeHash === KECCAK256_NULL_S, `an absent account is claimed to have code hash ${proof.codeHash}`);
    return;
  }
  const [nonce, balance, storageRoot, codeHash] = RLP.decode(value) as Uint8Array[];
  check(rlpInteger(nonce) === BigInt(proof.nonce), `proven nonce ${rlpInteger(nonce)}, claimed ${proof.nonce}`);
  check(rlpInteger(balance) === BigInt(proof.balance), `proven balance ${rlpInteger(balance)}, claimed ${proof.balance}`);
  check(bytesToHex(storageRoot) === proof.storageHash, `proven storage root ${bytesToHex(storageRoot)}, claimed ${proof.storageHash}`);
  check(bytesToHex(codeHash) === proof.codeHash, `proven code hash ${bytesToHex(codeHash)}, claimed ${proof.codeHash}`);
}

/** The 32-byte slot a storage key names (keys may come as quantities such as `0x1`). */
export function slotBytes(key: string): Uint8Array {
  return setLengthLeft(bigIntToBytes(BigInt(key)), 32);
}

/** Verifies one storage proof entry against the account's `storageHash`. */
export async function verifyStorageProof(entry: StorageProof, storageHash: string): Promise<void> {
  const value = await provenValue(storageHash, slotBytes(entry.key), entry.proof);
  const proven = value === null ? 0n : rlpInteger(RLP.decode(value) as Uint8Array);
  check(proven === BigInt(entry.value), `slot ${entry.key}: proven value ${proven}, claimed ${entry.value}`);
}

/** Verifies the account proof against `stateRoot` and every storage proof against the account's storageHash. */
export async function verifyProof(proof: AccountProof, stateRoot: string): Promise<void> {
  await verifyAccountProof(proof, stateRoot);
  for (const entry of proof.storageProof ?? []) await verifyStorageProof(entry, proof.storageHash);
}
