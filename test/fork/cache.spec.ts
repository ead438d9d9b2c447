// The per-user fork cache: one LevelDB per chain and fork block, the least recently used removed
// past the size bound, and a fork block the remote replaced (a reorg) never read from an old cache.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { cachedForks, forkStoreInDir, type ForkIdentity } from '../../src/fork/fork-store.js';
import { balanceOfData, seedRemote, startFork, transferData } from '../helpers/fork-remote.js';
import { DEV_ADDRESSES } from '../helpers/node.js';

const fork = (n: number): ForkIdentity => ({ chainId: 1n, number: BigInt(n), hash: `0x${n.toString(16).padStart(64, '0')}` });
const quiet = () => {};

describe('fork cache', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evm-node-fork-cache-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function fill(n: number, bytes: number): Promise<void> {
    const store = await forkStoreInDir(dir, fork(n), quiet, Number.MAX_SAFE_INTEGER);
    await store.db.trie.put(Buffer.from([n]), Buffer.alloc(bytes, n));
    await store.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it('removes the least recently used forks past the bound, never the one opening', async () => {
    await fill(1, 200_000);
    await fill(2, 200_000);
    await fill(3, 200_000);
    const opened = await forkStoreInDir(dir, fork(4), quiet, 450_000);
    await opened.close();
    expect(cachedForks(dir, undefined, undefined).map((f) => f.number)).to.deep.equal([4n, 3n, 2n]);
    expect(existsSync(join(dir, '1', `1-${fork(1).hash.slice(2)}`))).to.equal(false);
  });

  it('starts over a cache written in another storage layout', async () => {
    await fill(7, 10);
    const record = join(dir, '1', `7-${fork(7).hash.slice(2)}`, 'fork.json');
    writeFileSync(record, JSON.stringify({ ...JSON.parse(readFileSync(record, 'utf8')), layout: 2 }));
    expect(cachedForks(dir, 7n, 1n)).to.deep.equal([]);
    const reopened = await forkStoreInDir(dir, fork(7), quiet);
    try {
      expect(reopened.db.trie.getSync(Buffer.from([7]))).to.equal(undefined);
    } finally {
      await reopened.close();
    }
  });

  it('names the cached forks of a block, most recently used first (what --offline serves)', async () => {
    await fill(5, 10);
    await fill(6, 10);
    expect(cachedForks(dir, 5n, 1n)).to.deep.equal([fork(5)]);
    expect(cachedForks(dir, 5n, 2n)).to.deep.equal([]);
  });

  it('reads nothing of a fork block the remote has since replaced: the new block has its own cache', async () => {
    const remote = await seedRemote({ blocks: 1, perBlock: 2 });
    try {
      const at = remote.forkBlock;
      const snapshot = await remote.node.call('evm_snapshot', []);
      await remote.node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: remote.token, data: transferData(remote.holders[0], 1n) }]);
      const call = { to: remote.token, data: balanceOfData(remote.holders[0]) };
      const first = await startFork(remote.node.url, { blockNumber: at + 1n }, {}, dir);
      const before = await first.call('eth_call', [call, 'latest']);
      await first.destroy();
      // The remote's block at + 1 is replaced by one with another transfer (another hash).
      await remote.node.call('evm_revert', [snapshot]);
      await remote.node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: remote.token, data: transferData(remote.holders[0], 2n) }]);
      const second = await startFork(remote.node.url, { blockNumber: at + 1n }, {}, dir);
      try {
        expect(BigInt(await second.call('eth_call', [call, 'latest']))).to.equal(BigInt(before) + 1n);
        expect(cachedForks(dir, at + 1n, undefined)).to.have.length(2);
      } finally {
        await second.destroy();
      }
    } finally {
      await remote.node.destroy();
    }
  });
});
