// Signatures the node's accounts make over messages: EIP-191 personal messages (eth_sign,
// personal_sign) and EIP-712 typed data (eth_signTypedData_v4). Hashing and signing are
// micro-eth-signer's (already a dependency, for KZG); signatures are deterministic (RFC 6979, no
// added entropy), as geth's, anvil's and Hardhat's are, so the same request always answers the same.
// micro-eth-signer brings its own copy of @noble/curves: it is loaded on the first signature.
const signer = () => import('micro-eth-signer');

/** Typed data that does not follow EIP-712 (an unknown type, a value that does not fit its type). */
export class TypedDataError extends Error {
  constructor(message: string) {
    super(`invalid typed data: ${message}`);
    this.name = 'TypedDataError';
  }
}

/** r ‖ s ‖ v (27 or 28) over keccak256("\x19Ethereum Signed Message:\n" ‖ length ‖ data). */
export async function signPersonalMessage(data: Uint8Array, privateKey: Uint8Array): Promise<string> {
  const { eip191Signer } = await signer();
  return eip191Signer.sign(data, privateKey, false);
}

/** r ‖ s ‖ v (27 or 28) over the EIP-712 hash of `typed` (an object, or its JSON text). */
export async function signTypedData(typed: unknown, privateKey: Uint8Array): Promise<string> {
  let data = typed;
  if (typeof typed === 'string') {
    try {
      data = JSON.parse(typed);
    } catch (error) {
      throw new TypedDataError(`not JSON (${(error as Error).message})`);
    }
  }
  const { signTyped } = await signer();
  try {
    return signTyped(data as Parameters<typeof signTyped>[0], privateKey, false);
  } catch (error) {
    throw new TypedDataError((error as Error).message);
  }
}
