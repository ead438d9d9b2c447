import { createTx } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromString, utf8ToBytes } from '@ethereumjs/util';
import { expect } from 'chai';
import { keccak256 } from 'ethers';

import { impersonationSignature } from '../../src/txpool/impersonation.js';
import type { TxPool } from '../../src/txpool/pool.js';
import {
  addr,
  assertConsistent,
  CHAIN_ID,
  GWEI,
  harness,
  type Harness,
  nonces,
  reopen,
  sign,
  SINK,
  tx1559,
  wallets,
} from '../helpers/pool-fixtures.js';

/** What the simulated chain writes beside the journal's removals in a block's batch. */
const BLOCK_KEY = utf8ToBytes('block');
const BLOCK = utf8ToBytes('body');

/** The journal's entries as [hashHex, valueBytes]. */
async function journal(h: Harness): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for await (const [k, v] of h.db.pool.iterator()) out.set(bytesToHex(k), v);
  return out;
}

/** Simulate the chain: commit the removal ops in the root db's batch, then tell the pool. */
async function mine(h: Harness, hashes: string[], touched: string[] = []) {
  const ops = h.pool.removalOps(hashes);
  await h.db.root.batch([{ type: 'put', key: BLOCK_KEY, value: BLOCK }, ...ops]);
  return h.pool.afterBlock(hashes, touched);
}

function snapshot(pool: TxPool) {
  const { pending, queued } = pool.content();
  const flat = (m: Map<string, { hashHex: string; seq: number }[]>) =>
    [...m].map(([s, l]) => [s, l.map((p) => `${p.hashHex}@${p.seq}`)]).sort();
  return { size: pool.size(), pending: flat(pending), queued: flat(queued) };
}

describe('txpool mining: removalOps and afterBlock', () => {
  it('gives journal deletions for the mined transactions only', async () => {
    const h = await harness();
    const a = await h.pool.add(await tx1559(0, 0));
    await h.pool.add(await tx1559(1, 0));
    const ops = h.pool.removalOps([a.hashHex, '0x' + '11'.repeat(32)]);
    expect(ops).to.have.length(1);
    expect(ops[0].type).to.equal('del');
    expect(bytesToHex(ops[0].key)).to.equal(a.hashHex);
    expect(h.pool.size().total, 'removalOps does not touch memory').to.equal(2);
  });

  it('lets the chain delete the entries in its own atomic batch on the root db', async () => {
    const h = await harness();
    const a = await h.pool.add(await tx1559(0, 0));
    const b = await h.pool.add(await tx1559(1, 0));
    await h.db.root.batch([{ type: 'put', key: BLOCK_KEY, value: BLOCK }, ...h.pool.removalOps([a.hashHex])]);
    expect([...(await journal(h)).keys()]).to.deep.equal([b.hashHex]);
    expect(await h.db.root.get(BLOCK_KEY)).to.deep.equal(BLOCK);
  });

  it('forgets mined transactions as it is told, even while an admission holds the lock', async () => {
    const h = await harness();
    const a0 = await h.pool.add(await tx1559(0, 0));
    const admitting = h.pool.add(await tx1559(1, 0));
    h.env.set(0, { nonce: 1n });
    const settled = h.pool.afterBlock([a0.hashHex]);
    expect(h.pool.has(a0.hashHex)).to.equal(false);
    expect(h.pool.size().pending).to.equal(0);
    await Promise.all([admitting, settled]);
    expect(h.pool.size().pending).to.equal(1);
  });

  it('drops mined transactions from memory and promotes the rest of the run', async () => {
    const h = await harness();
    const a0 = await h.pool.add(await tx1559(0, 0));
    const a1 = await h.pool.add(await tx1559(0, 1));
    const a2 = await h.pool.add(await tx1559(0, 2));
    const a4 = await h.pool.add(await tx1559(0, 4));
    h.env.set(0, { nonce: 2n });
    const stale = await mine(h, [a0.hashHex, a1.hashHex]);
    expect(stale).to.deep.equal([]);
    expect(h.pool.get(a0.hashHex)).to.equal(undefined);
    const from = await h.pool.contentFrom(addr(0));
    expect(from.pending).to.deep.equal([a2]);
    expect(from.queued).to.deep.equal([a4]);
    expect(from.commitNonce).to.equal(2n);
    expect([...(await journal(h)).keys()].sort()).to.deep.equal([a2.hashHex, a4.hashHex].sort());
    assertConsistent(h.pool);
  });

  it('drops transactions a mined one made stale, from the journal too', async () => {
    const h = await harness();
    const mine0 = await tx1559(0, 0, 5n * GWEI, 10n * GWEI); // mined by the chain, never pooled
    const pooled0 = await h.pool.add(await tx1559(0, 0));
    const pooled1 = await h.pool.add(await tx1559(0, 1));
    h.env.set(0, { nonce: 1n });
    const stale = await mine(h, [keccak256(mine0)], [addr(0)]);
    expect(stale).to.deep.equal([pooled0]);
    expect(h.pool.content().pending.get(addr(0))).to.deep.equal([pooled1]);
    expect([...(await journal(h)).keys()]).to.deep.equal([pooled1.hashHex]);
    assertConsistent(h.pool);
  });

  it('promotes queued transactions when the state nonce reaches them', async () => {
    const h = await harness();
    await h.pool.add(await tx1559(0, 1));
    await h.pool.add(await tx1559(0, 2));
    expect(h.pool.size()).to.include({ pending: 0, queued: 2 });
    h.env.set(0, { nonce: 1n });
    await mine(h, [], [addr(0)]);
    expect(nonces(h.pool.content().pending.get(addr(0)))).to.deep.equal([1, 2]);
    expect(h.pool.size()).to.include({ pending: 2, queued: 0 });
    assertConsistent(h.pool);
  });

  it('re-reads the nonces of 7702 authorities of a mined transaction', async () => {
    const h = await harness();
    const victim = await h.pool.add(await tx1559(1, 0));
    const auth = wallets[1].authorizeSync({ address: SINK, nonce: 0, chainId: CHAIN_ID });
    const setCode = await h.pool.add(await sign(0, { type: 4, gasLimit: 60_000n, authorizationList: [auth] }));
    h.env.set(0, { nonce: 1n });
    h.env.set(1, { nonce: 1n });
    const stale = await mine(h, [setCode.hashHex]);
    expect(stale).to.deep.equal([victim]);
    expect(h.pool.size().total).to.equal(0);
  });

  it('revalidate() drops txs made stale by state changes the pool was not told about', async () => {
    const h = await harness();
    const a0 = await h.pool.add(await tx1559(0, 0));
    await h.pool.add(await tx1559(0, 1));
    h.env.set(0, { nonce: 1n });
    expect(await h.pool.revalidate()).to.deep.equal([a0]);
    expect(h.pool.size()).to.include({ pending: 1, total: 1 });
  });

  it('catches up with the state nonce at admission', async () => {
    const h = await harness();
    const a0 = await h.pool.add(await tx1559(0, 0));
    h.env.set(0, { nonce: 1n });
    await h.pool.add(await tx1559(0, 1));
    expect(h.pool.get(a0.hashHex)).to.equal(undefined);
    expect(h.pool.size()).to.include({ pending: 1, total: 1 });
    expect((await journal(h)).size).to.equal(1);
  });
});

/** A transfer from `sender`, whose key nobody has, with the placeholder signature of an impersonated account. */
function impersonatedTransfer(h: Harness, sender: string, nonce: bigint): Uint8Array {
  const common = h.env.common;
  const fields = { type: 2, chainId: CHAIN_ID, nonce, to: SINK, value: 1n, gasLimit: 21_000n, maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: GWEI } as const;
  return createTx({ ...fields, ...impersonationSignature(createAddressFromString(sender), 2, common) }, { common }).serialize();
}

describe('txpool journal', () => {
  it('records the claimed sender of an impersonated transaction (format 2) and gives it back after a reopen', async () => {
    const h = await harness();
    const sender = '0x00000000000000000000000000000000000a11ce';
    h.env.accounts.set(sender, { nonce: 0n, balance: 10n ** 18n });
    const first = await h.pool.addImpersonated(impersonatedTransfer(h, sender, 0n), createAddressFromString(sender));
    await h.pool.addImpersonated(impersonatedTransfer(h, sender, 1n), createAddressFromString(sender));
    expect((await journal(h)).get(first.hashHex)![0]).to.equal(0x02);
    const again = await reopen(h);
    const reloaded = again.get(first.hashHex)!;
    expect(reloaded).to.include({ senderHex: sender, impersonated: true, seq: first.seq });
    expect(reloaded.tx.getSenderAddress().toString()).to.equal(sender);
    expect(nonces(again.content().pending.get(sender))).to.deep.equal([0, 1]);
  });

  it('has the tx journaled by the time add resolves', async () => {
    const h = await harness();
    const raw = await tx1559(0, 0);
    const ptx = await h.pool.add(raw);
    const entries = await journal(h);
    expect([...entries.keys()]).to.deep.equal([ptx.hashHex]);
    const value = entries.get(ptx.hashHex)!;
    expect(value.subarray(value.length - raw.length)).to.deep.equal(raw);
    expect(value.length - raw.length).to.be.lessThan(16);
  });

  it('rebuilds the same categories after re-opening the same db', async () => {
    const h = await harness();
    for (const [i, n] of [[0, 0], [0, 1], [0, 3], [1, 2], [2, 0], [2, 1]] as const) await h.pool.add(await tx1559(i, n));
    await h.pool.add(await sign(3, { type: 0, chainId: 0n }));
    const before = snapshot(h.pool);
    const again = await reopen(h);
    expect(snapshot(again)).to.deep.equal(before);
    expect(again.executables(GWEI).map((p) => p.hashHex)).to.deep.equal(h.pool.executables(GWEI).map((p) => p.hashHex));
    assertConsistent(again);
  });

  it('recovers senders on reload and keeps arrival order going', async () => {
    const h = await harness();
    const first = await h.pool.add(await tx1559(0, 0));
    const again = await reopen(h);
    const reloaded = again.get(first.hashHex)!;
    expect(reloaded.senderHex).to.equal(addr(0));
    expect(reloaded.seq).to.equal(first.seq);
    const next = await again.add(await tx1559(1, 0));
    expect(next.seq).to.be.greaterThan(first.seq);
  });

  it('keeps only the replacement in the journal', async () => {
    const h = await harness();
    await h.pool.add(await tx1559(0, 0, GWEI, 2n * GWEI));
    const next = await h.pool.add(await tx1559(0, 0, 2n * GWEI, 4n * GWEI));
    expect([...(await journal(h)).keys()]).to.deep.equal([next.hashHex]);
    const again = await reopen(h);
    expect(again.content().pending.get(addr(0))).to.deep.equal([again.get(next.hashHex)]);
  });

  it('drops journaled transactions that went stale while the pool was closed', async () => {
    const h = await harness();
    const a0 = await h.pool.add(await tx1559(0, 0));
    const a1 = await h.pool.add(await tx1559(0, 1));
    const a3 = await h.pool.add(await tx1559(0, 3));
    h.env.set(0, { nonce: 1n });
    const again = await reopen(h);
    expect(again.get(a0.hashHex)).to.equal(undefined);
    expect(nonces(again.content().pending.get(addr(0)))).to.deep.equal([1]);
    expect(nonces(again.content().queued.get(addr(0)))).to.deep.equal([3]);
    expect([...(await journal(h)).keys()].sort()).to.deep.equal([a1.hashHex, a3.hashHex].sort());
    assertConsistent(again);
  });

  it('drops unreadable journal entries on open', async () => {
    const h = await harness();
    const ok = await h.pool.add(await tx1559(0, 0));
    await h.db.pool.put(new Uint8Array(32).fill(7), Uint8Array.of(9, 9, 9));
    const again = await reopen(h);
    expect(again.size().total).to.equal(1);
    expect([...(await journal(h)).keys()]).to.deep.equal([ok.hashHex]);
  });

  it('sheds the cheapest transactions when re-opened with a smaller limit', async () => {
    const h = await harness();
    await h.pool.add(await tx1559(0, 0, 3n * GWEI, 10n * GWEI));
    await h.pool.add(await tx1559(1, 0, GWEI, 10n * GWEI));
    await h.pool.add(await tx1559(2, 0, 2n * GWEI, 10n * GWEI));
    const again = await reopen(h, { limit: 2 });
    expect([...again.content().pending.keys()].sort()).to.deep.equal([addr(0), addr(2)].sort());
    expect((await journal(h)).size).to.equal(2);
  });

  it('empties memory and journal with clear()', async () => {
    const h = await harness();
    await h.pool.add(await tx1559(0, 0));
    await h.pool.add(await tx1559(0, 2));
    expect(await h.pool.clear()).to.have.length(2);
    expect(h.pool.size()).to.include({ pending: 0, queued: 0, total: 0 });
    expect((await journal(h)).size).to.equal(0);
  });
});

describe('txpool journal: accepted transactions', () => {
  it('pools an accepted transaction at once and journals it only when persisted', async () => {
    const h = await harness();
    const ptx = await h.pool.accept(await tx1559(0, 0));
    expect(h.pool.has(ptx.hashHex)).to.equal(true);
    expect((await journal(h)).size).to.equal(0);
    await h.pool.persist(ptx.hashHex);
    expect([...(await journal(h)).keys()]).to.deep.equal([ptx.hashHex]);
    expect((await reopen(h)).has(ptx.hashHex)).to.equal(true);
  });

  it('journals transactions persisted together in one batch', async () => {
    const h = await harness();
    const accepted = await Promise.all([0, 1, 2].map(async (i) => h.pool.accept(await tx1559(i, 0))));
    const batches: number[] = [];
    h.db.root.on('write', (ops: unknown[]) => batches.push(ops.length));
    await Promise.all(accepted.map((p) => h.pool.persist(p.hashHex)));
    expect(batches).to.deep.equal([3]);
    expect((await journal(h)).size).to.equal(3);
  });

  it('never journals an accepted transaction mined before it was persisted, nor asks the block to delete it', async () => {
    const h = await harness();
    const ptx = await h.pool.accept(await tx1559(0, 0));
    expect(h.pool.removalOps([ptx.hashHex])).to.deep.equal([]);
    h.env.set(0, { nonce: 1n });
    await mine(h, [ptx.hashHex]);
    await h.pool.persist(ptx.hashHex);
    expect((await journal(h)).size).to.equal(0);
  });

  it('drops accepted transactions whose journal write fails, and rejects their persist with its error', async () => {
    const h = await harness();
    const accepted = await Promise.all([0, 1].map(async (i) => h.pool.accept(await tx1559(i, 0))));
    const removed: string[] = [];
    h.pool.on('removed', (ptx) => removed.push(ptx.hashHex));
    Object.defineProperty(h.db.root, 'batch', { value: () => Promise.reject(new Error('disk full')), configurable: true });
    const outcomes = await Promise.allSettled(accepted.map((p) => h.pool.persist(p.hashHex)));
    Reflect.deleteProperty(h.db.root, 'batch');
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'fulfilled'))).to.deep.equal(['disk full', 'disk full']);
    expect(accepted.map((p) => h.pool.has(p.hashHex))).to.deep.equal([false, false]);
    expect(removed.sort()).to.deep.equal(accepted.map((p) => p.hashHex).sort());
    expect((await journal(h)).size).to.equal(0);
  });

  it('journals a replacement at once, with the deletion of what it replaces', async () => {
    const h = await harness();
    await h.pool.add(await tx1559(0, 0, GWEI, 2n * GWEI));
    const next = await h.pool.accept(await tx1559(0, 0, 2n * GWEI, 4n * GWEI));
    expect([...(await journal(h)).keys()]).to.deep.equal([next.hashHex]);
  });
});
