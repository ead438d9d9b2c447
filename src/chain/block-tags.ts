import type { Block } from '@ethereumjs/block';
import { equalsBytes, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { Chain } from './chain.js';

/** What a block parameter may say: a tag, a hex number, a 32-byte hash, or an EIP-1898 object. */
export type BlockRef = string | { blockHash: string; requireCanonical?: boolean } | { blockNumber: string };

/** A block parameter naming no block the chain holds (geth: `header not found`), or none on the canonical chain. */
export class UnknownBlockError extends Error {
  constructor(message = 'header not found') {
    super(message);
    this.name = 'UnknownBlockError';
  }
}

const HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * Finds the block a parameter names. A dev chain finalises at once, as anvil's does, so `safe`
 * and `finalized` are the head; an imported chain has them from its forkchoice.
 */
export async function resolveBlock(chain: Chain, ref: BlockRef | undefined, pending?: () => Promise<Block>): Promise<Block | undefined> {
  if (ref === undefined) return chain.head();
  if (typeof ref === 'object') {
    if ('blockHash' in ref) {
      const block = await chain.blockByHash(hexToBytes(ref.blockHash as PrefixedHexString));
      if (block === undefined || ref.requireCanonical !== true) return block;
      const canonical = await chain.blockByNumber(block.header.number);
      if (canonical === undefined || !equalsBytes(canonical.hash(), block.hash())) throw new UnknownBlockError('hash is not currently canonical');
      return block;
    }
    return resolveBlock(chain, ref.blockNumber, pending);
  }
  switch (ref) {
    case 'latest':
      return chain.head();
    case 'safe':
      return chain.safe();
    case 'finalized':
      return chain.finalized();
    case 'earliest':
      // A fork's genesis is its fork block; the earliest block is the remote's first.
      return chain.genesis.header.number === 0n ? chain.genesis : chain.blockByNumber(0n);
    case 'pending':
      return pending !== undefined ? pending() : chain.head();
  }
  if (HASH.test(ref)) return chain.blockByHash(hexToBytes(ref as PrefixedHexString));
  return chain.blockByNumber(BigInt(ref));
}

/** Like {@link resolveBlock}, for methods that read state: a missing block is an error, as in geth. */
export async function requireBlock(chain: Chain, ref: BlockRef | undefined, pending?: () => Promise<Block>): Promise<Block> {
  const block = await resolveBlock(chain, ref, pending);
  if (block === undefined) throw new UnknownBlockError('header not found');
  return block;
}
