// The pool as the txpool_* methods show it, cross-checked: every view must tell the same story.
import { expect } from 'chai';
import type { TestNode } from './node.js';

/** Per sender (lowercase), the nonces listed as pending and as queued. */
export type PoolModel = Record<string, { pending: number[]; queued: number[] }>;

const nonces = (byNonce: Record<string, unknown>) => Object.keys(byNonce).map(Number).sort((a, b) => a - b);
const lowerKeys = <T>(map: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(map).map(([k, v]) => [k.toLowerCase(), v]));

/**
 * Reads txpool_content, txpool_contentFrom (each sender), txpool_inspect, txpool_simpleContent and
 * txpool_status (each result checked against the contract by `node.call`), checks they agree with
 * each other, with eth_getTransactionCount and with the counters' definitions, and answers the model.
 */
export async function poolModel(node: TestNode, limit = 10_000): Promise<PoolModel> {
  const [content, inspect, simple, status] = await Promise.all([
    node.call('txpool_content', []),
    node.call('txpool_inspect', []),
    node.call('txpool_simpleContent', []),
    node.call('txpool_status', []),
  ]);
  const pending = lowerKeys(content.pending);
  const queued = lowerKeys(content.queued);
  const senders = [...new Set([...Object.keys(pending), ...Object.keys(queued)])].sort();
  const model: PoolModel = {};
  for (const sender of senders) model[sender] = { pending: nonces(pending[sender] ?? {}), queued: nonces(queued[sender] ?? {}) };

  // Counters: their definitions, and the same numbers in every view.
  const ready = Object.values(model).reduce((n, m) => n + m.pending.length, 0);
  const notReady = Object.values(model).reduce((n, m) => n + m.queued.length, 0);
  const counters = { txCountLimit: limit, txCount: ready + notReady, readyTxCount: ready, notReadyTxCount: notReady };
  expect({ txCountLimit: content.txCountLimit, txCount: content.txCount, readyTxCount: content.readyTxCount, notReadyTxCount: content.notReadyTxCount }, 'txpool_content counters').to.deep.equal(counters);
  expect({ txCountLimit: simple.txCountLimit, txCount: simple.txCount, readyTxCount: simple.readyTxCount, notReadyTxCount: simple.notReadyTxCount }, 'txpool_simpleContent counters').to.deep.equal(counters);
  expect(status, 'txpool_status').to.deep.equal({ pending: `0x${ready.toString(16)}`, queued: `0x${notReady.toString(16)}` });

  // txpool_inspect lists the same transactions.
  const inspectPending = lowerKeys(inspect.pending);
  const inspectQueued = lowerKeys(inspect.queued);
  for (const sender of senders) {
    expect(nonces(inspectPending[sender] ?? {}), `inspect pending of ${sender}`).to.deep.equal(model[sender].pending);
    expect(nonces(inspectQueued[sender] ?? {}), `inspect queued of ${sender}`).to.deep.equal(model[sender].queued);
  }
  expect(Object.keys(inspectPending).filter((s) => !senders.includes(s)), 'inspect senders').to.deep.equal([]);
  expect(Object.keys(inspectQueued).filter((s) => !senders.includes(s)), 'inspect senders').to.deep.equal([]);

  const accounts = lowerKeys(simple.simpleAccountContent);
  expect(Object.keys(accounts).sort(), 'simpleContent senders').to.deep.equal(senders);
  for (const sender of senders) {
    const { pending: p, queued: q } = model[sender];
    const [from, latest, pendingCount] = await Promise.all([
      node.call('txpool_contentFrom', [sender]),
      node.call('eth_getTransactionCount', [sender, 'latest']),
      node.call('eth_getTransactionCount', [sender, 'pending']),
    ]);
    const commitNonce = Number(BigInt(latest));
    // pending is the unbroken run from the account nonce; queued lies beyond a gap.
    expect(p, `pending run of ${sender}`).to.deep.equal(Array.from({ length: p.length }, (_, i) => commitNonce + i));
    const pendingNonce = commitNonce + p.length;
    for (const n of q) expect(n, `queued nonce of ${sender}`).to.be.greaterThan(pendingNonce);
    expect({ commitNonce: from.commitNonce, pendingNonce: from.pendingNonce, txCount: from.txCount }, `txpool_contentFrom(${sender})`).to.deep.equal({
      commitNonce,
      pendingNonce,
      txCount: p.length + q.length,
    });
    expect(nonces(from.pending)).to.deep.equal(p);
    expect(nonces(from.queued)).to.deep.equal(q);
    for (const n of p) expect(from.pending[String(n)].hash).to.equal(pending[sender][String(n)].hash);
    expect(Number(BigInt(pendingCount)), `eth_getTransactionCount(${sender}, pending)`).to.equal(pendingNonce);
    const account = accounts[sender];
    expect({ commitNonce: account.commitNonce, pendingNonce: account.pendingNonce, txCount: account.txCount }, `simpleContent of ${sender}`).to.deep.equal({
      commitNonce,
      pendingNonce,
      txCount: p.length + q.length,
    });
    expect(account.pending.map((e) => e.Nonce)).to.deep.equal(p);
    expect(account.queued.map((e) => e.Nonce)).to.deep.equal(q);
    for (const e of account.pending) expect(e.TxHash).to.equal(pending[sender][String(e.Nonce)].hash);
    for (const e of account.queued) expect(e.TxHash).to.equal(queued[sender][String(e.Nonce)].hash);
  }
  return model;
}
