import { bytesToHex } from '@ethereumjs/util';
import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import { encodeStoredReceipt } from '../../format/raw-receipt.js';
import { loadVmLibrary } from '../../state/vm.js';
import type { Handlers, MethodServices } from '../services.js';

export function debug_getRawReceipts({ chain, pendingBlock }: Pick<MethodServices, 'chain' | 'pendingBlock'>): Handlers['debug_getRawReceipts'] {
  return async ([ref]) => {
    const block = await resolveBlock(chain, ref as BlockRef, pendingBlock);
    if (block === undefined) return null;
    const records = (await chain.blocks.completeRecords(block)) ?? [];
    const library = await loadVmLibrary();
    return records.map(({ receipt }, i) => bytesToHex(encodeStoredReceipt(library, receipt, block.transactions[i].type)));
  };
}
