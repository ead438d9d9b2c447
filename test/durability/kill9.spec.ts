// kill -9 of the node process (the CLI as a child), then a restart on the same data dir: nothing
// eth_sendRawTransaction acknowledged is lost, and the chain and pool are consistent.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { spawnNode, type ChildNode } from '../helpers/child-node.js';
import { rpc } from '../helpers/rpc.js';
import { inspect, signTransfer, sleep, stream, waitFor, WALLETS, type SignedTx } from './support.js';

describe('durability: kill -9 and restart', function () {
  this.timeout(60_000);
  let dir: string;
  const running: ChildNode[] = [];
  const start = async (flags: string[], logLevel?: 'debug') => {
    const node = await spawnNode(dir, flags, { logLevel });
    running.push(node);
    return node;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evm-node-kill9-'));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((node) => node.kill9()));
    await rm(dir, { recursive: true, force: true });
  });

  it('manual mining: every acknowledged transaction is back in the pool in the same category', async () => {
    const [a, b, c, d] = WALLETS.slice(1, 5);
    const txs: SignedTx[] = [
      // a: a run of 12 (pending), one of them replaced below
      ...Array.from({ length: 12 }, (_, n) => signTransfer(a, n)),
      // b: legacy 0…4 pending, 6…8 queued behind the gap at 5
      ...[0, 1, 2, 3, 4, 6, 7, 8].map((n) => signTransfer(b, n, { type: 0 })),
      // c: EIP-2930 2…5, all queued (nothing at 0 and 1)
      ...[2, 3, 4, 5].map((n) => signTransfer(c, n, { type: 1 })),
      // d: 0 pending, 2 queued
      ...[0, 2].map((n) => signTransfer(d, n)),
    ];
    const replacement = signTransfer(a, 7, { maxFeeGwei: 200n, tipGwei: 2n, value: 999n });
    const expected = new Map<string, 'pending' | 'queued'>();
    for (const tx of txs) expected.set(tx.hash, tx.from === c.address || (tx.from === b.address && tx.nonce > 5) || (tx.from === d.address && tx.nonce === 2) ? 'queued' : 'pending');
    expected.delete(txs[7].hash);
    expected.set(replacement.hash, 'pending');

    let node = await start(['--no-mining']);
    // All at once, so they arrive in any order: the pool sorts them out.
    const hashes = await Promise.all(txs.map((tx) => rpc<string>(node.url, 'eth_sendRawTransaction', [tx.raw])));
    expect(hashes).to.deep.equal(txs.map((tx) => tx.hash));
    expect(await rpc<string>(node.url, 'eth_sendRawTransaction', [replacement.raw])).to.equal(replacement.hash);
    await node.kill9();

    node = await start(['--no-mining']);
    const snapshot = await inspect(node.url, [a, b, c, d].map((w) => w.address));
    expect(snapshot.head).to.equal(0);
    expect(new Map([...snapshot.pooled].map(([hash, entry]) => [hash, entry.category]))).to.deep.equal(expected);
    for (const tx of [...txs, replacement]) {
      const found = await rpc<{ hash: string; blockNumber: null } | null>(node.url, 'eth_getTransactionByHash', [tx.hash]);
      if (expected.has(tx.hash)) expect(found).to.include({ hash: tx.hash, blockNumber: null });
      else expect(found).to.equal(null);
    }

    // The restored pool is live: filling the gaps and mining takes everything.
    await rpc(node.url, 'eth_sendRawTransaction', [signTransfer(b, 5, { type: 0 }).raw]);
    for (const n of [0, 1]) await rpc(node.url, 'eth_sendRawTransaction', [signTransfer(c, n, { type: 1 }).raw]);
    await rpc(node.url, 'eth_sendRawTransaction', [signTransfer(d, 1).raw]);
    await rpc(node.url, 'evm_mine', []);
    const after = await inspect(node.url, [a, b, c, d].map((w) => w.address));
    expect(after.pooled.size).to.equal(0);
    for (const hash of expected.keys()) expect(after.mined.has(hash), hash).to.equal(true);
  });

  for (const mode of [
    { name: 'automine', flags: [] as string[], perSender: 150 },
    { name: 'interval mining', flags: ['--block-time', '1'], perSender: 500 },
  ]) {
    it(`${mode.name}: killed mid-mining with submissions in flight, every acknowledged transaction is mined or pooled`, async () => {
      const acked = new Set<string>();
      const senders: string[] = [];
      let midMining = 0;
      // Each round: a fresh set of senders streams transfers; once the second block of the round
      // starts being built (the miner says so at debug level), the node dies a little later.
      // A fourth round, killing as soon as the block starts, only when none of the three landed
      // mid-build: a block can be built before the delay is over.
      for (const [round, offsetMs] of [10, 60, 150, 0].entries()) {
        if (round === 3 && midMining > 0) break;
        const wallets = WALLETS.slice(1 + round * 5, 6 + round * 5);
        senders.push(...wallets.map((w) => w.address));
        const txs = wallets.map((w) => Array.from({ length: mode.perSender }, (_, n) => signTransfer(w, n)));
        const node = await start(mode.flags, 'debug');
        const head0 = Number(await rpc<string>(node.url, 'eth_blockNumber'));
        let killed = false;
        const sending = stream(node.url, txs, 3, () => killed, acked);
        const building = await waitFor(async () => node.stderr().includes(`building block ${head0 + 2}\n`), 15_000, 5);
        expect(building, `a second block within 15 s\n${node.stderr()}`).to.equal(true);
        await sleep(offsetMs);
        killed = true;
        await node.kill9();
        await sending;
        const log = node.stderr();
        const wasMining = log.lastIndexOf('building block') > log.lastIndexOf('landed with');
        if (wasMining) midMining++;
        if (process.env.DURABILITY_DEBUG) console.log(`round ${round}: killed ${offsetMs} ms into block ${head0 + 2}, ${wasMining ? 'mid-mining' : 'between blocks'}, ${acked.size} acked`);
      }
      expect(midMining, 'rounds killed while a block was being built').to.be.at.least(1);
      expect(acked.size, 'transactions acknowledged before the kills').to.be.greaterThan(20);
      if (process.env.DURABILITY_DEBUG) console.log(`acked ${acked.size}`);

      // Inspect on a node that does not mine, so nothing moves underneath.
      let node = await start(['--no-mining']);
      const snapshot = await inspect(node.url, senders);
      if (process.env.DURABILITY_DEBUG) console.log(`head ${snapshot.head} mined ${snapshot.mined.size} pooled ${snapshot.pooled.size}`, Date.now());
      expect(snapshot.head, 'blocks mined before the kills').to.be.greaterThan(0);
      for (const hash of acked) {
        expect(snapshot.mined.has(hash) || snapshot.pooled.has(hash), `acknowledged ${hash} neither mined nor pooled`).to.equal(true);
      }
      for (const [hash, at] of snapshot.mined) {
        const receipt = await rpc<{ blockNumber: string } | null>(node.url, 'eth_getTransactionReceipt', [hash]);
        expect(Number(receipt?.blockNumber), hash).to.equal(at.block);
      }
      await node.stop();

      // Back in the original mode, the journaled pending transactions get mined.
      node = await start(mode.flags);
      const drained = await waitFor(
        async () => Number((await rpc<{ pending: string }>(node.url, 'txpool_status')).pending) === 0,
        15_000,
      );
      expect(drained, 'pending transactions mined after the restart').to.equal(true);
      await node.stop();
      node = await start(['--no-mining']);
      const final = await inspect(node.url, senders);
      for (const hash of acked) expect(final.mined.has(hash) || final.pooled.get(hash)?.category === 'queued', hash).to.equal(true);
      for (const entry of final.pooled.values()) expect(entry.category).to.equal('queued');
    });
  }
});
