// The pool's version: what answers made from its content (txpool_content, txpool_inspect) are kept
// under. It changes whenever a reader could see another content, and only then.
import { expect } from 'chai';
import { harness, tx1559 } from '../helpers/pool-fixtures.js';

describe("txpool: the pool's version", () => {
  it('changes when a transaction comes', async () => {
    const { pool } = await harness();
    const before = pool.version;
    await pool.add(await tx1559(0, 0));
    expect(pool.version).to.not.equal(before);
  });

  it('changes when a transaction leaves', async () => {
    const { pool } = await harness();
    const added = await pool.add(await tx1559(0, 0));
    const before = pool.version;
    await pool.drop(added.hashHex);
    expect(pool.version).to.not.equal(before);
  });

  it("changes when a sender's nonce moves its queued transactions into pending", async () => {
    const { pool, env } = await harness();
    env.set(0, { nonce: 4n });
    await pool.add(await tx1559(0, 5));
    const before = pool.version;
    env.set(0, { nonce: 5n });
    await pool.revalidate();
    expect(pool.size()).to.include({ pending: 1, queued: 0 });
    expect(pool.version).to.not.equal(before);
  });

  it("changes when a sender's nonce makes a transaction stale", async () => {
    const { pool, env } = await harness();
    await pool.add(await tx1559(0, 0));
    const before = pool.version;
    env.set(0, { nonce: 1n });
    await pool.revalidate();
    expect(pool.size()).to.include({ total: 0 });
    expect(pool.version).to.not.equal(before);
  });

  it('stays while nothing a reader sees changes: a revalidation that moves no transaction', async () => {
    const { pool } = await harness();
    await pool.add(await tx1559(0, 0));
    await pool.add(await tx1559(1, 2));
    const before = pool.version;
    await pool.revalidate();
    expect(pool.version).to.equal(before);
  });
});
