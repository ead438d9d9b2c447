// Forking: the fork's clock runs on from the fork block's time as time passes, as anvil's does, so a
// fork of an old block stays in that block's time — an oracle's staleness check, a swap's deadline,
// the interest a loan accrues see the fork block's time, not the day the fork was made.
import { expect } from 'chai';
import { blockAt } from '../helpers/dev-calls.js';
import { startFork, type ForkingNode } from '../helpers/fork-remote.js';
import { startTestNode, type TestNode } from '../helpers/node.js';

/** A remote whose blocks are dated November 2023. */
const THEN = 1_700_000_000n;

describe('forking: the fork block’s time', () => {
  let remote: TestNode;
  let fork: ForkingNode;
  let forkTime: bigint;

  before(async () => {
    remote = await startTestNode({ timestamp: THEN, dataDir: undefined });
    await remote.call('evm_mine', []);
    forkTime = BigInt((await blockAt(remote, 'latest')).timestamp);
  });
  beforeEach(async () => {
    fork = await startFork(remote.url, { blockNumber: 1n });
  });
  afterEach(() => fork.destroy());
  after(() => remote.destroy());

  it('dates the first block mined on the fork just after the fork block, not at the wall clock', async () => {
    await fork.call('evm_mine', []);
    const mined = BigInt((await blockAt(fork, 'latest')).timestamp);
    expect(mined > forkTime && mined < forkTime + 60n, `mined at ${mined}, the fork block at ${forkTime}`).to.equal(true);
  });

  it('moves with evm_increaseTime from there, which counts its offset from the fork block’s time', async () => {
    expect(await fork.call('evm_increaseTime', [3600])).to.equal('3600');
    await fork.call('evm_mine', []);
    const mined = BigInt((await blockAt(fork, 'latest')).timestamp);
    expect(mined >= forkTime + 3600n && mined < forkTime + 3660n, `mined at ${mined}, the fork block at ${forkTime}`).to.equal(true);
  });
});
