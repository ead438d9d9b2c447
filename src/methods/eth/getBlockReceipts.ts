import type { Block } from '@ethereumjs/block';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { resolveBlock, type BlockRef } from '../../chain/block-tags.js';
import { txRecordsOf } from '../../chain/block-store.js';
import { toRpcReceipt } from '../../format/receipt.js';
import { composedResult } from '../../rpc/shared-results.js';
import type { TxRecord } from '../../storage/layout.js';
import type { Handlers, MethodServices } from '../services.js';

/** Receipts formatted and serialised between two turns of the event loop. */
const RECEIPTS_PER_SLICE = 256;

/**
 * A block's receipts. A big block's are formatted and serialised a slice at a time, the event loop
 * free between slices: 5,000 receipts take ~100 ms of formatting, which would otherwise hold every
 * other request as long. The answer's JSON is the slices' joined.
 */
async function receiptsOf(block: Block, records: TxRecord[]) {
  const format = (start: number) => records.slice(start, start + RECEIPTS_PER_SLICE).map((record, i) => toRpcReceipt(block.transactions[start + i].hash(), record));
  if (records.length <= RECEIPTS_PER_SLICE) return format(0);
  const receipts: ReturnType<typeof toRpcReceipt>[] = [];
  const json: Buffer[] = [];
  for (let start = 0; start < records.length; start += RECEIPTS_PER_SLICE) {
    if (start > 0) await setImmediatePromise();
    const slice = format(start);
    receipts.push(...slice);
    json.push(Buffer.from(`${start === 0 ? '[' : ','}${JSON.stringify(slice).slice(1, -1)}`));
  }
  json.push(Buffer.from(']'));
  return composedResult(receipts, Buffer.concat(json));
}

export function eth_getBlockReceipts({ chain, pendingPreview }: Pick<MethodServices, 'chain' | 'pendingPreview'>): Handlers['eth_getBlockReceipts'] {
  return async ([ref]) => {
    // The pending block is not stored: its receipts come with it, from the run that built it.
    let pending: TxRecord[] | undefined;
    const block = await resolveBlock(chain, ref as BlockRef, async () => {
      const preview = await pendingPreview();
      pending = txRecordsOf(preview.block, preview.receipts);
      return preview.block;
    });
    if (block === undefined) return null;
    return receiptsOf(block, pending ?? (await chain.blocks.completeRecords(block)) ?? []);
  };
}
