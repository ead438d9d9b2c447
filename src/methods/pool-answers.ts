// The txpool_ answers' parts. A pooled transaction never changes (a replacement is a new PooledTx), so
// each one's formatted entry, summary and JSON member are made once and reused until it leaves the
// pool. A full pool's content is a megabyte of JSON: an answer is its members' bytes joined, a copy,
// not a stringify and an encode of the whole.
import type { PoolSimpleContent, PoolTransaction } from '../../generated/types.js';
import { perObject } from '../caches.js';
import { feeCap } from '../fees/fees.js';
import { toQuantity } from '../format/quantity.js';
import { toRpcPoolTransaction } from '../format/transaction.js';
import { composedResult } from '../rpc/shared-results.js';
import type { TxPool } from '../txpool/pool.js';
import type { PoolContent, PooledTx, SenderContent } from '../txpool/types.js';

const byNonce = <T>(txs: PooledTx[], render: (tx: PooledTx) => T): Record<string, T> =>
  Object.fromEntries(txs.map((tx) => [tx.nonce.toString(10), render(tx)]));

const bySender = <T>(groups: Map<string, PooledTx[]>, render: (tx: PooledTx) => T): Record<string, Record<string, T>> =>
  Object.fromEntries([...groups].map(([sender, txs]) => [sender, byNonce(txs, render)]));

/** A pooled transaction as txpool_content lists it. Shared objects: never mutate one. */
export const poolTx = perObject((pooled: PooledTx): PoolTransaction => toRpcPoolTransaction(pooled.tx, pooled.sender));

/** docs/SPEC.md §2.10: `<to>: <value> wei + <gas> gas × <gasPrice> wei`, hex quantities. */
const summary = perObject(({ tx }: PooledTx): string => {
  const to = tx.to === undefined ? 'contract creation' : tx.to.toString();
  return `${to}: ${toQuantity(tx.value)} wei + ${toQuantity(tx.gasLimit)} gas × ${toQuantity(feeCap(tx))} wei`;
});

/** Each transaction's member of an answer's JSON, `"nonce":entry`, encoded. */
const memberOf = (entryJson: (tx: PooledTx) => string) => perObject((tx: PooledTx): Buffer => Buffer.from(`"${tx.nonce.toString(10)}":${entryJson(tx)}`));
const contentMember = memberOf((tx) => JSON.stringify(poolTx(tx)));
const inspectMember = memberOf((tx) => JSON.stringify(summary(tx)));

const COMMA = Buffer.from(',');
const OPEN = Buffer.from('{');
const CLOSE = Buffer.from('}');

/** The JSON of sender → nonce → entry: senders in the map's order, each one's in nonce order, as the object has them. */
function groupsJson(groups: Map<string, PooledTx[]>, member: (tx: PooledTx) => Buffer, chunks: Buffer[]): void {
  chunks.push(OPEN);
  let firstSender = true;
  for (const [sender, txs] of groups) {
    chunks.push(Buffer.from(`${firstSender ? '' : ','}"${sender}":{`));
    firstSender = false;
    txs.forEach((tx, i) => {
      if (i > 0) chunks.push(COMMA);
      chunks.push(member(tx));
    });
    chunks.push(CLOSE);
  }
  chunks.push(CLOSE);
}

/** The JSON of `{pending, queued, ...rest}`, from the pool's groups and the rest's own JSON. */
function poolJson(groups: PoolContent, member: (tx: PooledTx) => Buffer, restJson: string): Buffer {
  const chunks: Buffer[] = [Buffer.from('{"pending":')];
  groupsJson(groups.pending, member, chunks);
  chunks.push(Buffer.from(',"queued":'));
  groupsJson(groups.queued, member, chunks);
  chunks.push(Buffer.from(restJson === '{}' ? '}' : `,${restJson.slice(1)}`));
  return Buffer.concat(chunks);
}

/** The pool's counters as txpool_content and txpool_simpleContent give them. */
export function poolCounters(pool: Pick<TxPool, 'size'>) {
  const size = pool.size();
  return { txCountLimit: size.limit, txCount: size.total, readyTxCount: size.pending, notReadyTxCount: size.queued };
}

/** txpool_content's answer: every pooled transaction by sender and nonce, and the counters. */
export function contentAnswer(pool: Pick<TxPool, 'content' | 'size'>) {
  const groups = pool.content();
  const rest = poolCounters(pool);
  return composedResult(
    { pending: bySender(groups.pending, poolTx), queued: bySender(groups.queued, poolTx), ...rest },
    poolJson(groups, contentMember, JSON.stringify(rest)),
  );
}

/** txpool_inspect's answer: every pooled transaction's summary by sender and nonce. */
export function inspectAnswer(pool: Pick<TxPool, 'content'>) {
  const groups = pool.content();
  return composedResult({ pending: bySender(groups.pending, summary), queued: bySender(groups.queued, summary) }, poolJson(groups, inspectMember, '{}'));
}

/** One sender's pooled transactions, rendered by `render`, and its nonces. */
export function senderAnswer<T>(content: SenderContent, render: (txs: PooledTx[]) => T) {
  return {
    pending: render(content.pending),
    queued: render(content.queued),
    commitNonce: Number(content.commitNonce),
    pendingNonce: Number(content.pendingNonce),
    txCount: content.pending.length + content.queued.length,
  };
}

/** A sender's transactions as txpool_contentFrom lists them. */
export const fullEntries = (txs: PooledTx[]) => byNonce(txs, poolTx);

/** A sender's transactions as txpool_simpleContent lists them. */
export const simpleEntries = (txs: PooledTx[]): PoolSimpleContent['simpleAccountContent'][string]['pending'] =>
  txs.map((tx) => ({ Nonce: Number(tx.nonce), TxHash: tx.hashHex }));
