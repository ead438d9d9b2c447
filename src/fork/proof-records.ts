import { bigIntToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util';

/** A block of the remote chain whose state the node reads: the fork block, or one before it. */
export interface RemoteBlock {
  number: bigint;
  hash: Uint8Array;
  stateRoot: Uint8Array;
}

/** The forked state lacks what a read needs, and the remote cannot (or, offline, may not) bring it. */
export class ForkStateMissing extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForkStateMissing';
  }
}

/**
 * The fork store's records of what proofs brought (fork-state.ts): an account's at a block, a
 * slot's at a block, and the account known to own a code hash. Their values are empty, or name
 * the owner; the nodes themselves are in the trie store.
 */
export const ACCOUNT = 0x61;
export const SLOT = 0x73;
export const CODE = 0x63;
export const numberBytes = (n: bigint) => setLengthLeft(hexToBytes(bigIntToHex(n)), 8);
export const concat = (...parts: Uint8Array[]): Buffer => Buffer.concat(parts);

export const accountRecord = (block: RemoteBlock, address: Uint8Array): Buffer => concat(Uint8Array.of(ACCOUNT), numberBytes(block.number), address);
export const slotRecord = (block: RemoteBlock, address: Uint8Array, slot: Uint8Array): Buffer => concat(Uint8Array.of(SLOT), numberBytes(block.number), address, slot);
