// Signatures the node's accounts make over messages: EIP-191 personal messages (eth_sign,
// personal_sign) and EIP-712 typed data (eth_signTypedData_v4). Hashing and signing are
// micro-eth-signer's (already a dependency, for KZG); signatures are deterministic (RFC 6979, no
// added entropy), as geth's, anvil's and Hardhat's are, so the same request always answers the same.
import { eip191Signer, signTyped } from 'micro-eth-signer';

/** Typed data that does not follow EIP-712 (an unknown type, a value that does not fit its type). */
export class TypedDataError extends Error {
  constructor(message: string) {
    super(`invalid typed data: ${message}`);
    this.name = 'TypedDataError';
  }
}

/** r ‖ s ‖ v (27 or 28) over keccak256("\x19Ethereum Signed Message:\n" ‖ length ‖ data). */
export function signPersonalMessage(data: Uint8Array, privateKey: Uint8Array): string {
  return eip191Signer.sign(data, privateKey, false);
}

/** r ‖ s ‖ v (27 or 28) over the EIP-712 hash of `typed` (an object, or its JSON text). */
export function signTypedData(typed: unknown, privateKey: Uint8Array): string {
  let data = typed;
  if (typeof typed === 'string') {
    try {
      data = JSON.parse(typed);
    } catch (error) {
      throw new TypedDataError(`not JSON (${(error as Error).message})`);
    }
  }
  try {
    return signTyped(data as Parameters<typeof signTyped>[0], privateKey, false);
  } catch (error) {
    throw new TypedDataError((error as Error).message);
  }
}
