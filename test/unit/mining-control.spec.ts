// Automine's rounds, with a miner and a pool the test controls: when a sender is answered, and
// when the next block waits for answered senders.
import { expect } from 'chai';
import type { MinedBlock } from '../../src/producer/miner.js';
import { MiningControl, type MiningMiner, type MiningPool } from '../../src/producer/mining-control.js';
import type { PooledTx } from '../../src/txpool/types.js';

const quiet = { error: () => {} };
const tx = (hashHex: string) => ({ hashHex }) as PooledTx;
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A pool holding what the test says, and a miner whose blocks land when the test says. */
function fakes() {
  let pending: PooledTx[] = [];
  const added = new Set<() => void>();
  const blocks: { included: PooledTx[]; land: () => void }[] = [];
  const pool: MiningPool = {
    executables: () => pending,
    on: ((_event: 'added', listener: () => void) => {
      added.add(listener);
      return () => added.delete(listener);
    }) as MiningPool['on'],
  };
  const miner: MiningMiner = {
    mine: () =>
      new Promise<MinedBlock>((resolve) => {
        const included = pending;
        blocks.push({
          included,
          land: () => {
            pending = pending.filter((p) => !included.includes(p));
            resolve({ block: {} as MinedBlock['block'], included });
          },
        });
      }),
  };
  return {
    pool,
    miner,
    blocks,
    /** A transaction arrives: pooled, and the pool tells its listeners. */
    arrive(hashHex: string): PooledTx {
      const pooled = tx(hashHex);
      pending = [...pending, pooled];
      for (const listener of [...added]) listener();
      return pooled;
    },
  };
}

describe('mining control (automine)', () => {
  it('answers a sender once its block lands, while the rounds go on for others', async () => {
    const f = fakes();
    const mining = new MiningControl(f.miner, f.pool, quiet, { automine: true, intervalMs: 0 });
    f.arrive('0xa1');
    let answered = false;
    const a = mining.submitted('0xa1').then(() => (answered = true));
    await tick();
    // While block 1 is being built, another sender's transaction arrives.
    f.arrive('0xb1');
    void mining.submitted('0xb1');
    f.blocks[0].land();
    await a;
    expect(answered).to.equal(true);
    await tick();
    expect(f.blocks, 'the next round is under way').to.have.length(2);
    expect(f.blocks[1].included.map((p) => p.hashHex)).to.deep.equal(['0xb1']);
    f.blocks[1].land();
  });

  it('after a block of several answered senders, the next waits for their next transactions', async () => {
    const f = fakes();
    const mining = new MiningControl(f.miner, f.pool, quiet, { automine: true, intervalMs: 0, gatherMs: 60_000 });
    f.arrive('0xa1');
    f.arrive('0xb1');
    const answers = [mining.submitted('0xa1'), mining.submitted('0xb1')];
    await tick();
    // A third sender's transaction arrives while the block is built: it alone does not start the next block.
    f.arrive('0xc1');
    void mining.submitted('0xc1');
    f.blocks[0].land();
    await Promise.all(answers);
    await tick();
    expect(f.blocks).to.have.length(1);
    f.arrive('0xa2');
    await tick();
    expect(f.blocks).to.have.length(1);
    f.arrive('0xb2');
    await tick();
    expect(f.blocks).to.have.length(2);
    expect(f.blocks[1].included.map((p) => p.hashHex)).to.deep.equal(['0xc1', '0xa2', '0xb2']);
    f.blocks[1].land();
  });

  it('a lone sender never waits', async () => {
    const f = fakes();
    const mining = new MiningControl(f.miner, f.pool, quiet, { automine: true, intervalMs: 0, gatherMs: 60_000 });
    f.arrive('0xa1');
    void mining.submitted('0xa1');
    await tick();
    f.arrive('0xb1');
    void mining.submitted('0xb1');
    f.blocks[0].land();
    await tick();
    await tick();
    expect(f.blocks).to.have.length(2);
    f.blocks[1].land();
  });
});
