import type { PoolSimpleContent, PoolTransaction } from '../../../generated/types.js';
import { feeCap } from '../../fees/fees.js';
import { toQuantity } from '../../format/quantity.js';
import { toRpcPoolTransaction } from '../../format/transaction.js';
import { composedResult } from '../../rpc/shared-results.js';
import type { PoolContent, PooledTx } from '../../txpool/types.js';
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

/** docs/SPEC.md §2.10: `<to>: <value> wei + <gas> gas × <gasPrice> wei`, hex quantities; made once per pooled transaction. */
const summaries = new WeakMap<PooledTx, string>();
function summary(pooled: PooledTx): string {
  let text = summaries.get(pooled);
  if (text === undefined) {
    const { tx } = pooled;
    const to = tx.to === undefined ? 'contract creation' : tx.to.toString();
    text = `${to}: ${toQuantity(tx.value)} wei + ${toQuantity(tx.gasLimit)} gas × ${toQuantity(feeCap(tx))} wei`;
    summaries.set(pooled, text);
  }
  return text;
}

/**
 * A full pool's content is a megabyte of JSON. Each transaction's member of it (`"nonce":entry`)
 * is serialised and encoded once, so an answer is these joined: a copy, not a stringify and an
 * encode of the whole.
 */
const members = { content: new WeakMap<PooledTx, Buffer>(), inspect: new WeakMap<PooledTx, Buffer>() };
const memberJson = (kind: keyof typeof members, entryJson: (tx: PooledTx) => string) => (tx: PooledTx): Buffer => {
  let member = members[kind].get(tx);
  if (member === undefined) {
    member = Buffer.from(`"${tx.nonce.toString(10)}":${entryJson(tx)}`);
    members[kind].set(tx, member);
  }
  return member;
};
const contentMember = memberJson('content', (tx) => JSON.stringify(poolTx(tx)));
const inspectMember = memberJson('inspect', (tx) => JSON.stringify(summary(tx)));

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

/**
 * The last answer of each kind, with the pool's transactions it was made from (in category and
 * order): a pool polled while nothing changes gets that answer again instead of one joined anew.
 */
interface Answer {
  pending: PooledTx[];
  queued: PooledTx[];
  rest: string;
  result: object;
}
type Answers = { content?: Answer; inspect?: Answer };

const sameTxs = (a: readonly PooledTx[], b: readonly PooledTx[]) => a.length === b.length && a.every((tx, i) => tx === b[i]);

/** The answer of `kind` for `groups` (and the rest, `restJson`): the last one while the pool holds the same transactions in the same places, else `make`'s. */
function answerFor<T extends object>(answers: Answers, kind: keyof Answers, groups: PoolContent, restJson: string, make: () => T): T {
  const pending = [...groups.pending.values()].flat();
  const queued = [...groups.queued.values()].flat();
  const last = answers[kind];
  if (last !== undefined && last.rest === restJson && sameTxs(last.pending, pending) && sameTxs(last.queued, queued)) return last.result as T;
  const result = make();
  answers[kind] = { pending, queued, rest: restJson, result };
  return result;
}

const simpleEntry = (tx: PooledTx) => ({ Nonce: Number(tx.nonce), TxHash: tx.hashHex });

export function txpoolMethods({ pool }: Pick<Services, 'pool'>): Pick<Handlers,
  'txpool_content' | 'txpool_contentFrom' | 'txpool_inspect' | 'txpool_simpleContent' | 'txpool_status'
> {
  const answers: Answers = {};
  const counters = () => {
    const size = pool.size();
    return { txCountLimit: size.limit, txCount: size.total, readyTxCount: size.pending, notReadyTxCount: size.queued };
  };
  return {
    txpool_content: async () => {
      const groups = pool.content();
      const rest = counters();
      const restJson = JSON.stringify(rest);
      return answerFor(answers, 'content', groups, restJson, () =>
        composedResult(
          { pending: bySender(groups.pending, poolTx), queued: bySender(groups.queued, poolTx), ...rest },
          poolJson(groups, contentMember, restJson),
        ),
      );
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
      const groups = pool.content();
      return answerFor(answers, 'inspect', groups, '{}', () =>
        composedResult({ pending: bySender(groups.pending, summary), queued: bySender(groups.queued, summary) }, poolJson(groups, inspectMember, '{}')),
      );
    },
    txpool_simpleContent: async () => {
      const { pending, queued } = pool.content();
      const senders = new Set([...pending.keys(), ...queued.keys()]);
      const simpleAccountContent: PoolSimpleContent['simpleAccountContent'] = {};
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
