import type { Block } from '@ethereumjs/block';
import { bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import { encodeStoredReceipt } from '../../format/raw-receipt.js';
import { loadVmLibrary } from '../../state/vm.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'pool' | 'pendingBlock'>;

export function rawMethods({ chain, pool, pendingBlock }: Deps): Pick<Handlers,
  'debug_getRawHeader' | 'debug_getRawBlock' | 'debug_getRawReceipts' | 'debug_getRawTransaction'
> {
  const blockOf = (ref: unknown): Promise<Block | undefined> => resolveBlock(chain, ref as BlockRef, pendingBlock);
  return {
    debug_getRawHeader: async ([ref]) => {
      const block = await blockOf(ref);
      return block === undefined ? null : bytesToHex(block.header.serialize());
    },
    debug_getRawBlock: async ([ref]) => {
      const block = await blockOf(ref);
      return block === undefined ? null : bytesToHex(block.serialize());
    },
    debug_getRawReceipts: async ([ref]) => {
      const block = await blockOf(ref);
      if (block === undefined) return null;
      const records = (await chain.blocks.completeRecords(block)) ?? [];
      const library = await loadVmLibrary();
      return records.map(({ receipt }, i) => bytesToHex(encodeStoredReceipt(library, receipt, block.transactions[i].type)));
    },
    debug_getRawTransaction: async ([hash]) => {
      const record = await chain.blocks.txRecord(hexToBytes(hash as PrefixedHexString));
      const block = record === undefined ? undefined : await chain.blockByHash(record.blockHash);
      const mined = block?.transactions[record!.index];
      if (mined !== undefined) return bytesToHex(mined.serialize());
      const pooled = pool.get(hash.toLowerCase());
      return pooled === undefined ? null : bytesToHex(pooled.tx.serialize());
    },
  };
}
