import type { PoolTransaction, TxpoolSimpleContent } from '../../../generated/types.js';
import { feeCap } from '../../fees/fees.js';
import { toQuantity } from '../../format/quantity.js';
import { toRpcPoolTransaction } from '../../format/transaction.js';
import type { PooledTx } from '../../txpool/types.js';
import type { Handlers, Services } from '../services.js';

const byNonce = <T>(txs: PooledTx[], render: (tx: PooledTx) => T): Record<string, T> =>
  Object.fromEntries(txs.map((tx) => [tx.nonce.toString(10), render(tx)]));

const bySender = <T>(groups: Map<string, PooledTx[]>, render: (tx: PooledTx) => T): Record<string, Record<string, T>> =>
  Object.fromEntries([...groups].map(([sender, txs]) => [sender, byNonce(txs, render)]));

/**
 * A pooled transaction never changes (a replacement is a new PooledTx), so each is formatted once
 * and reused by every txpool_content until it leaves the pool. Shared objects: never mutate one.
 */
const formatted = new WeakMap<PooledTx, PoolTransaction>();
const poolTx = (pooled: PooledTx): PoolTransaction => {
  let rpc = formatted.get(pooled);
  if (rpc === undefined) {
    rpc = toRpcPoolTransaction(pooled.tx, pooled.sender);
    formatted.set(pooled, rpc);
  }
  return rpc;
};

/** docs/SPEC.md §2.10: `<to>: <value> wei + <gas> gas × <gasPrice> wei`, hex quantities. */
function summary({ tx }: PooledTx): string {
  const to = tx.to === undefined ? 'contract creation' : tx.to.toString();
  return `${to}: ${toQuantity(tx.value)} wei + ${toQuantity(tx.gasLimit)} gas × ${toQuantity(feeCap(tx))} wei`;
}

const simpleEntry = (tx: PooledTx) => ({ Nonce: Number(tx.nonce), TxHash: tx.hashHex });

export function txpoolMethods({ pool }: Pick<Services, 'pool'>): Pick<Handlers,
  'txpool_content' | 'txpool_contentFrom' | 'txpool_inspect' | 'txpool_simpleContent' | 'txpool_status'
> {
  const counters = () => {
    const size = pool.size();
    return { txCountLimit: size.limit, txCount: size.total, readyTxCount: size.pending, notReadyTxCount: size.queued };
  };
  return {
    txpool_content: async () => {
      const { pending, queued } = pool.content();
      return { pending: bySender(pending, poolTx), queued: bySender(queued, poolTx), ...counters() };
    },
    txpool_contentFrom: async ([address]) => {
      const content = await pool.contentFrom(address.toLowerCase());
      return {
        pending: byNonce(content.pending, poolTx),
        queued: byNonce(content.queued, poolTx),
        commitNonce: Number(content.commitNonce),
        pendingNonce: Number(content.pendingNonce),
        txCount: content.pending.length + content.queued.length,
      };
    },
    txpool_inspect: async () => {
      const { pending, queued } = pool.content();
      return { pending: bySender(pending, summary), queued: bySender(queued, summary) };
    },
    txpool_simpleContent: async () => {
      const { pending, queued } = pool.content();
      const senders = new Set([...pending.keys(), ...queued.keys()]);
      const simpleAccountContent: TxpoolSimpleContent['simpleAccountContent'] = {};
      for (const sender of senders) {
        const content = await pool.contentFrom(sender);
        simpleAccountContent[sender] = {
          pending: content.pending.map(simpleEntry),
          queued: content.queued.map(simpleEntry),
          commitNonce: Number(content.commitNonce),
          pendingNonce: Number(content.pendingNonce),
          txCount: content.pending.length + content.queued.length,
        };
      }
      return { simpleAccountContent, ...counters() };
    },
    txpool_status: async () => {
      const size = pool.size();
      return { pending: toQuantity(size.pending), queued: toQuantity(size.queued) };
    },
  };
}
