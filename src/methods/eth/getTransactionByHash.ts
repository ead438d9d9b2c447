import { Address, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { toRpcPoolTransaction, toRpcTransaction } from '../../format/transaction.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_getTransactionByHash({ chain, pool }: Pick<MethodServices, 'chain' | 'pool'>): Handlers['eth_getTransactionByHash'] {
  return async ([hash]) => {
    const record = await chain.blocks.txRecord(hexToBytes(hash as PrefixedHexString));
    if (record !== undefined) {
      const block = await chain.blockByHash(record.blockHash);
      const tx = block?.transactions[record.index];
      if (tx !== undefined) return toRpcTransaction(tx, block!, record.index, new Address(record.receipt.sender));
    }
    const pooled = pool.get(hash.toLowerCase());
    return pooled === undefined ? null : toRpcPoolTransaction(pooled.tx, pooled.sender);
  };
}
