// Group commit: submissions that arrive together are checked one after the other and journaled in
// one write; each is acknowledged only once that write landed, and a failed write undoes them all.
import { expect } from 'chai';
import { MemoryLevel } from 'memory-level';
import { TxPool } from '../../src/txpool/pool.js';
import type { JournalDb, JournalOp } from '../../src/txpool/journal.js';
import type { PooledTx } from '../../src/txpool/types.js';
import { addr, assertConsistent, FakeEnv, GWEI, nonces, tx1559 } from '../helpers/pool-fixtures.js';

/** The pool's journal with its writes in the test's hands: each recorded, and held or failed on demand. */
class ControlledJournal {
  readonly writes: JournalOp[][] = [];
  /** while set, a write waits for it */
  hold?: Promise<void>;
  /** while set, a write fails with it */
  failure?: Error;
  readonly db: JournalDb;

  constructor() {
    const section = new MemoryLevel<string, string>().sublevel('txpool') as unknown as JournalDb;
    this.db = {
      batch: async (ops, options) => {
        this.writes.push(ops);
        await this.hold;
        if (this.failure !== undefined) throw this.failure;
        // The ops name the journal (this wrapper) as their sublevel; the section below takes them as its own.
        return section.batch(ops.map(({ sublevel: _, ...op }) => op as JournalOp), options);
      },
      iterator: (options) => section.iterator(options),
    };
  }
}

const puts = (ops: JournalOp[]) => ops.filter((op) => op.type === 'put').length;

async function pool(): Promise<{ pool: TxPool; journal: ControlledJournal; events: string[] }> {
  const journal = new ControlledJournal();
  const opened = await TxPool.open(journal.db, new FakeEnv());
  const events: string[] = [];
  opened.on('added', (ptx) => events.push(`added ${ptx.senderHex}:${ptx.nonce}`));
  opened.on('removed', (ptx: PooledTx, reason: string) => events.push(`removed ${ptx.senderHex}:${ptx.nonce} ${reason}`));
  return { pool: opened, journal, events };
}

describe('txpool group commit', () => {
  it('journals the submissions that arrive together in one write', async () => {
    const { pool: p, journal } = await pool();
    const raws = await Promise.all([tx1559(0, 0), tx1559(0, 1), tx1559(1, 0), tx1559(2, 0), tx1559(0, 2)]);
    const before = journal.writes.length;
    await Promise.all(raws.map((raw) => p.add(raw)));
    expect(journal.writes.slice(before).map(puts)).to.deep.equal([5]);
    expect(nonces(p.content().pending.get(addr(0)))).to.deep.equal([0, 1, 2]);
    assertConsistent(p);
  });

  it('acknowledges a submission only once its write has landed, and keeps it out of blocks until then', async () => {
    const { pool: p, journal, events } = await pool();
    let land!: () => void;
    journal.hold = new Promise((resolve) => (land = resolve));
    let acknowledged = false;
    const added = p.add(await tx1559(0, 0)).then(() => (acknowledged = true));
    while (journal.writes.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(acknowledged).to.equal(false);
    expect(events).to.deep.equal([]);
    expect(p.executables()).to.deep.equal([]);
    land();
    await added;
    expect(events).to.deep.equal([`added ${addr(0)}:0`]);
    expect(p.executables().map((ptx) => ptx.senderHex)).to.deep.equal([addr(0)]);
  });

  it('refuses every submission of a failed write and undoes them: what they replaced comes back', async () => {
    const { pool: p, journal, events } = await pool();
    const original = await p.add(await tx1559(0, 0, GWEI, 2n * GWEI));
    events.length = 0;
    const fault = new Error('disk full');
    journal.failure = fault;
    const outcomes = await Promise.allSettled([p.add(await tx1559(0, 0, 2n * GWEI, 4n * GWEI)), p.add(await tx1559(1, 0)), p.add(await tx1559(0, 1))]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? o.reason : 'admitted'))).to.deep.equal([fault, fault, fault]);
    expect(p.get(original.hashHex)).to.equal(original);
    expect(p.size()).to.deep.include({ pending: 1, queued: 0, total: 1 });
    expect(p.content().pending.get(addr(1))).to.equal(undefined);
    expect(events).to.deep.equal([]);
    assertConsistent(p);
    journal.failure = undefined;
    await p.add(await tx1559(1, 0));
    expect(p.size().total).to.equal(2);
  });
});
