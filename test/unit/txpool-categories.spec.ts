import { expect } from 'chai';

import type { PooledTx } from '../../src/txpool/types.js';
import {
  addr,
  assertConsistent,
  GWEI,
  harness,
  type Harness,
  nonces,
  rejects,
  sign,
  tx1559,
} from '../helpers/pool-fixtures.js';

const keys = async (h: Harness) => (await h.db.pool.keys().all()).length;

describe('txpool categories: pending and queued', () => {
  it('puts a transaction at the account nonce in pending', async () => {
    const { pool } = await harness();
    await pool.add(await tx1559(0, 0));
    expect(pool.size()).to.deep.equal({ pending: 1, queued: 0, total: 1, limit: 10_000 });
    assertConsistent(pool);
  });

  it('puts a transaction beyond a nonce gap in queued', async () => {
    const { pool } = await harness();
    await pool.add(await tx1559(0, 0));
    await pool.add(await tx1559(0, 2));
    const { pending, queued } = pool.content();
    expect(nonces(pending.get(addr(0)))).to.deep.equal([0]);
    expect(nonces(queued.get(addr(0)))).to.deep.equal([2]);
    expect(pool.size()).to.include({ pending: 1, queued: 1, total: 2 });
    assertConsistent(pool);
  });

  it('queues a transaction whose nonce is above the account nonce with nothing before it', async () => {
    const { pool, env } = await harness();
    env.set(0, { nonce: 4n });
    await pool.add(await tx1559(0, 5));
    expect(pool.size()).to.include({ pending: 0, queued: 1 });
    const from = await pool.contentFrom(addr(0));
    expect(from.commitNonce).to.equal(4n);
    expect(from.pendingNonce).to.equal(4n);
    assertConsistent(pool);
  });

  it('promotes queued transactions when the gap fills', async () => {
    const { pool } = await harness();
    await pool.add(await tx1559(0, 0));
    await pool.add(await tx1559(0, 2));
    await pool.add(await tx1559(0, 3));
    expect(pool.size()).to.include({ pending: 1, queued: 2 });
    await pool.add(await tx1559(0, 1));
    const { pending, queued } = pool.content();
    expect(nonces(pending.get(addr(0)))).to.deep.equal([0, 1, 2, 3]);
    expect(queued.size).to.equal(0);
    expect(pool.size()).to.include({ pending: 4, queued: 0, total: 4 });
    assertConsistent(pool);
  });

  it('keeps senders apart and lists each nonce-ascending', async () => {
    const { pool } = await harness();
    for (const [i, n] of [[1, 2], [0, 1], [1, 0], [0, 0], [1, 1], [2, 7]] as const) await pool.add(await tx1559(i, n));
    const { pending, queued } = pool.content();
    expect(nonces(pending.get(addr(0)))).to.deep.equal([0, 1]);
    expect(nonces(pending.get(addr(1)))).to.deep.equal([0, 1, 2]);
    expect(nonces(queued.get(addr(2)))).to.deep.equal([7]);
    expect(pending.has(addr(2))).to.equal(false);
    assertConsistent(pool);
  });

  it('answers the pending nonce past the unbroken run, and the state nonce for unknown senders', async () => {
    const { pool, env } = await harness();
    env.set(0, { nonce: 2n });
    await pool.add(await tx1559(0, 2));
    await pool.add(await tx1559(0, 3));
    await pool.add(await tx1559(0, 5));
    expect(await pool.pendingNonce(addr(0))).to.equal(4n);
    expect(await pool.pendingNonce(addr(0).toUpperCase().replace('0X', '0x'))).to.equal(4n);
    env.set(3, { nonce: 9n });
    expect(await pool.pendingNonce(addr(3))).to.equal(9n);
  });

  it('reports one sender with contentFrom', async () => {
    const { pool } = await harness();
    await pool.add(await tx1559(0, 0));
    await pool.add(await tx1559(0, 1));
    await pool.add(await tx1559(0, 3));
    const from = await pool.contentFrom(addr(0));
    expect(nonces(from.pending)).to.deep.equal([0, 1]);
    expect(nonces(from.queued)).to.deep.equal([3]);
    expect(from.commitNonce).to.equal(0n);
    expect(from.pendingNonce).to.equal(2n);
  });

  it('demotes the later nonces when a pending transaction is dropped', async () => {
    const h = await harness();
    const { pool } = h;
    await pool.add(await tx1559(0, 0));
    const mid = await pool.add(await tx1559(0, 1));
    await pool.add(await tx1559(0, 2));
    expect(await pool.drop(mid.hashHex)).to.equal(mid);
    expect(pool.size()).to.include({ pending: 1, queued: 1, total: 2 });
    expect(await keys(h)).to.equal(2);
    assertConsistent(pool);
  });
});

describe('txpool replacement', () => {
  it('replaces a transaction with at least 10% more fee cap and tip', async () => {
    const h = await harness();
    const { pool } = h;
    const old = await pool.add(await tx1559(0, 0, 10n * GWEI, 20n * GWEI));
    const removed: string[] = [];
    pool.on('removed', (p, why) => removed.push(`${p.hashHex}:${why}`));
    const next = await pool.add(await tx1559(0, 0, 11n * GWEI, 22n * GWEI));
    expect(pool.get(old.hashHex)).to.equal(undefined);
    expect(pool.get(next.hashHex)).to.equal(next);
    expect(removed).to.deep.equal([`${old.hashHex}:replaced`]);
    expect(pool.size()).to.include({ pending: 1, total: 1 });
    expect(await keys(h)).to.equal(1);
    assertConsistent(pool);
  });

  it('replaces a queued transaction and keeps it queued', async () => {
    const { pool } = await harness();
    await pool.add(await tx1559(0, 3));
    await pool.add(await tx1559(0, 3, 2n * GWEI, 4n * GWEI));
    expect(pool.size()).to.include({ pending: 0, queued: 1, total: 1 });
    assertConsistent(pool);
  });

  it('replaces a legacy transaction with a 10% higher gas price', async () => {
    const { pool } = await harness();
    await pool.add(await sign(0, { type: 0, gasPrice: 10n * GWEI }));
    const next = await pool.add(await sign(0, { type: 0, gasPrice: 11n * GWEI }));
    expect(pool.content().pending.get(addr(0))).to.deep.equal([next]);
  });

  it('rejects a replacement that bumps only the fee cap', async () => {
    const { pool } = await harness();
    const old = await pool.add(await tx1559(0, 0, 10n * GWEI, 20n * GWEI));
    await rejects(pool.add(await tx1559(0, 0, 10n * GWEI, 40n * GWEI)), 'replacement transaction underpriced');
    expect(pool.content().pending.get(addr(0))).to.deep.equal([old]);
    assertConsistent(pool);
  });

  it('rejects a replacement that bumps only the tip', async () => {
    const { pool } = await harness();
    await pool.add(await tx1559(0, 0, 10n * GWEI, 20n * GWEI));
    await rejects(pool.add(await tx1559(0, 0, 20n * GWEI, 20n * GWEI)), 'replacement transaction underpriced');
  });

  it('rejects a replacement below 10% on either field', async () => {
    const { pool } = await harness();
    await pool.add(await tx1559(0, 0, 10n * GWEI, 20n * GWEI));
    await rejects(
      pool.add(await tx1559(0, 0, 10n * GWEI + GWEI - 1n, 22n * GWEI)),
      'replacement transaction underpriced',
    );
    await rejects(
      pool.add(await tx1559(0, 0, 11n * GWEI, 22n * GWEI - 1n)),
      'replacement transaction underpriced',
    );
    expect(pool.size().total).to.equal(1);
  });

  it('checks the balance against the bump of a pending replacement', async () => {
    const { pool, env } = await harness();
    env.set(0, { balance: 100_000n * GWEI });
    await pool.add(await tx1559(0, 0, GWEI, 2n * GWEI)); // cost 42,000 gwei
    await pool.add(await tx1559(0, 1, GWEI, 2n * GWEI)); // queued cost 84,000 gwei
    await rejects(
      pool.add(await tx1559(0, 1, 2n * GWEI, 3n * GWEI)), // 63,000 gwei: bump 21,000
      'insufficient funds for gas * price + value: balance 100000000000000, queued cost 84000000000000, tx bumped 21000000000000, overshot 5000000000000',
    );
  });
});

describe('txpool capacity', () => {
  it('rejects a newcomer when full and its tip does not beat the cheapest', async () => {
    const h = await harness({ limit: 2 });
    const { pool } = h;
    await pool.add(await tx1559(0, 0, 2n * GWEI, 10n * GWEI));
    await pool.add(await tx1559(1, 0, 2n * GWEI, 10n * GWEI));
    await rejects(pool.add(await tx1559(2, 0, 2n * GWEI, 10n * GWEI)), 'txpool is full');
    expect(pool.size()).to.deep.equal({ pending: 2, queued: 0, total: 2, limit: 2 });
    expect(await keys(h)).to.equal(2);
  });

  it('evicts the cheapest when full and the newcomer pays a better tip', async () => {
    const h = await harness({ limit: 2 });
    const { pool } = h;
    const cheap = await pool.add(await tx1559(0, 0, GWEI, 10n * GWEI));
    const mid = await pool.add(await tx1559(1, 0, 2n * GWEI, 10n * GWEI));
    const evicted: PooledTx[] = [];
    pool.on('removed', (p, why) => why === 'evicted' && evicted.push(p));
    const rich = await pool.add(await tx1559(2, 0, 3n * GWEI, 10n * GWEI));
    expect(evicted).to.deep.equal([cheap]);
    expect(pool.get(cheap.hashHex)).to.equal(undefined);
    expect(pool.get(mid.hashHex)).to.equal(mid);
    expect(pool.get(rich.hashHex)).to.equal(rich);
    expect(pool.size()).to.deep.equal({ pending: 2, queued: 0, total: 2, limit: 2 });
    expect(await keys(h)).to.equal(2);
    assertConsistent(pool);
  });

  it('evicts from the highest-nonce end of the cheapest sender, opening no gap', async () => {
    const { pool } = await harness({ limit: 3 });
    const a0 = await pool.add(await tx1559(0, 0, GWEI, 10n * GWEI)); // cheapest tx
    const a1 = await pool.add(await tx1559(0, 1, 5n * GWEI, 10n * GWEI));
    await pool.add(await tx1559(1, 0, 4n * GWEI, 10n * GWEI));
    await pool.add(await tx1559(2, 0, 2n * GWEI, 10n * GWEI));
    expect(pool.get(a1.hashHex)).to.equal(undefined);
    expect(pool.content().pending.get(addr(0))).to.deep.equal([a0]);
    expect(pool.size()).to.include({ pending: 3, queued: 0, total: 3 });
    assertConsistent(pool);
  });

  it('does not evict the newcomer’s own predecessor', async () => {
    const { pool } = await harness({ limit: 1 });
    await pool.add(await tx1559(0, 0, GWEI, 10n * GWEI));
    await rejects(pool.add(await tx1559(0, 1, 5n * GWEI, 10n * GWEI)), 'txpool is full');
  });

  it('lets a replacement through when full', async () => {
    const { pool } = await harness({ limit: 1 });
    await pool.add(await tx1559(0, 0, GWEI, 10n * GWEI));
    await pool.add(await tx1559(0, 0, 2n * GWEI, 11n * GWEI));
    expect(pool.size().total).to.equal(1);
  });
});

describe('txpool concurrency', () => {
  it('admits exactly one of two concurrent transactions with the same nonce', async () => {
    const { pool } = await harness();
    const [a, b] = await Promise.all([tx1559(0, 0, GWEI, 3n * GWEI), tx1559(0, 0, GWEI, 4n * GWEI)]);
    const results = await Promise.allSettled([pool.add(a), pool.add(b)]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).to.have.length(1);
    expect(failed).to.have.length(1);
    expect(failed[0].reason.message).to.equal('replacement transaction underpriced');
    expect(pool.size()).to.include({ pending: 1, total: 1 });
    assertConsistent(pool);
  });

  it('keeps counters consistent under many concurrent adds', async () => {
    const h = await harness();
    const { pool } = h;
    const raws = await Promise.all(
      [0, 1, 2].flatMap((i) => [0, 1, 2, 4].map((n) => tx1559(i, n))),
    );
    await Promise.all([...raws].reverse().map((r) => pool.add(r)));
    expect(pool.size()).to.deep.equal({ pending: 9, queued: 3, total: 12, limit: 10_000 });
    expect(await keys(h)).to.equal(12);
    assertConsistent(pool);
  });
});

describe('txpool executables', () => {
  it('orders by nonce within a sender and by effective tip across senders', async () => {
    const { pool } = await harness();
    const a0 = await pool.add(await tx1559(0, 0, GWEI, 10n * GWEI)); // tip 1
    const a1 = await pool.add(await tx1559(0, 1, 5n * GWEI, 10n * GWEI)); // tip 5, behind a0
    const b0 = await pool.add(await tx1559(1, 0, 3n * GWEI, 10n * GWEI)); // tip 3
    const c0 = await pool.add(await sign(2, { type: 0, gasPrice: 3n * GWEI })); // legacy: 3 - 1 = 2
    await pool.add(await tx1559(3, 1)); // queued: never executable
    expect(pool.executables(GWEI)).to.deep.equal([b0, c0, a0, a1]);
  });

  it('caps the tip at feeCap - baseFee', async () => {
    const { pool } = await harness();
    const a = await pool.add(await tx1559(0, 0, 3n * GWEI, 3n * GWEI)); // effective min(3, 3 - 1) = 2
    const b = await pool.add(await tx1559(1, 0, 5n * GWEI / 2n, 10n * GWEI)); // effective 2.5
    expect(pool.executables(GWEI)).to.deep.equal([b, a]);
  });

  it('breaks tip ties by arrival', async () => {
    const { pool } = await harness();
    const first = await pool.add(await tx1559(1, 0));
    const second = await pool.add(await tx1559(0, 0));
    expect(pool.executables(GWEI)).to.deep.equal([first, second]);
  });

  it('skips a sender whose next transaction cannot pay the base fee, with its later nonces', async () => {
    const { pool } = await harness();
    await pool.add(await tx1559(0, 0, GWEI, 2n * GWEI));
    await pool.add(await tx1559(0, 1, 10n * GWEI, 20n * GWEI));
    const b0 = await pool.add(await tx1559(1, 0, GWEI, 5n * GWEI));
    expect(pool.executables(3n * GWEI)).to.deep.equal([b0]);
  });

  it('uses the next block base fee by default', async () => {
    const { pool, env } = await harness();
    await pool.add(await tx1559(0, 0, GWEI, 2n * GWEI));
    env.baseFee = 3n * GWEI;
    expect(pool.executables()).to.deep.equal([]);
  });
});
