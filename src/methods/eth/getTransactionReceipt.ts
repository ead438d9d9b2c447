import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { toRpcReceipt } from '../../format/receipt.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getTransactionReceipt({ chain }: Pick<MethodServices, 'chain'>): Handlers['eth_getTransactionReceipt'] {
  return async ([hash]) => {
    const txHash = hexToBytes(hash as PrefixedHexString);
    const record = await chain.blocks.txRecord(txHash);
    return record === undefined ? null : toRpcReceipt(txHash, record);
  };
}
