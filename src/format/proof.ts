import type { Proof } from '@ethereumjs/common';
import type { AccountProof } from '../../generated/types.js';

/**
 * An account proof (docs/SPEC.md §2.3). ethereumjs already answers in RPC form; SPEC departs from geth in
 * one place: `storageProof` is null, not [], when no storage keys were asked for.
 */
export function toRpcProof(proof: Proof, askedForStorage: boolean): AccountProof {
  return {
    address: proof.address.toLowerCase(),
    accountProof: proof.accountProof,
    balance: proof.balance,
    codeHash: proof.codeHash,
    nonce: proof.nonce,
    storageHash: proof.storageHash,
    storageProof: askedForStorage ? proof.storageProof.map(({ key, value, proof: nodes }) => ({ key, value, proof: nodes })) : null,
  };
}
