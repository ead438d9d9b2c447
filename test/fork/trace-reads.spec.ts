// Forking: tracing a transaction of a remote block replays the block here, on the remote's state. What
// its start and its transactions read is fetched side by side, in a few round trips, not one after
// another as each transaction met it.
import { expect } from 'chai';
import { direct, forkFixture } from '../helpers/fork-remote.js';

describe('forking: traces of remote transactions', () => {
  const f = forkFixture({ blocks: 1, perBlock: 16 });

  it('traces the last of 20 transactions of a remote block in a few round trips, with the remote’s own trace', async () => {
    const hash = f.remote.transfers.at(-1)!;
    f.proxy.reset();
    expect(await f.fork.call('debug_traceTransaction', [hash, { tracer: 'callTracer' }])).to.deep.equal(await direct(f.remote, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]));
    // The receipt, the parent; what the block's start and its transactions' parties read, at once (in
    // requests of at most four proofs); then the 32 balances the transfers read, in the rounds a
    // transfer's two reads take — 9 requests here, where a replay one transaction after another
    // made 32.
    expect(f.proxy.reset().http).to.be.at.most(12);
  });

  it('traces an earlier transaction of a block read ahead already asking the remote for its receipt alone', async () => {
    const hash = f.remote.transfers[3];
    expect(await f.fork.call('debug_traceTransaction', [hash, { tracer: 'prestateTracer' }])).to.deep.equal(await direct(f.remote, 'debug_traceTransaction', [hash, { tracer: 'prestateTracer' }]));
    expect(f.proxy.reset().total).to.equal(1);
  });
});
