// Fail-stop storage, with write failures injected where writes reach LevelDB (test/helpers/
// faulty-store.ts): a failed write is answered -32000 with its cause, later writes are refused the
// same way, reads go on, /health says why, and once the store was re-opened and checked the node
// takes writes again and keeps everything it acknowledged. The same on a real full disk: full-disk.spec.ts.
import { expect } from 'chai';
import type { Logger } from '../../src/log.js';
import { signTransfer, sleep, waitFor, WALLETS } from '../durability/support.js';
import { faultyStorage, type FaultyLevel } from '../helpers/faulty-store.js';
import { verifyProof } from '../helpers/proof.js';
import { DEV_ADDRESSES, startTestNode, testLogger, type TestNode } from '../helpers/node.js';
import { rpc } from '../helpers/rpc.js';
import { rpcError } from '../helpers/transactions.js';

const DISK_FULL = /^disk full: no space left on device \(ENOSPC\) writing \S+000003\.log; the node refuses writes until the data dir can be written again$/;

async function health(url: string): Promise<{ status: number; body: { ok: boolean; number: number; error?: string } }> {
  const res = await fetch(`${url}/health`);
  return { status: res.status, body: (await res.json()) as { ok: boolean; number: number; error?: string } };
}

describe('storage: fail-stop after a failed write (injected)', function () {
  this.timeout(30_000);
  let node: TestNode;
  let store: () => FaultyLevel;
  const errors: string[] = [];
  const log: Logger = { ...testLogger, error: (message) => errors.push(message) };
  const send = (nonce: number) => rpc<string>(node.url, 'eth_sendRawTransaction', [signTransfer(WALLETS[1], nonce).raw]);
  const recovered = () => waitFor(async () => (await health(node.url)).status === 200, 10_000);

  const start = async (overrides = {}) => {
    const faulty = faultyStorage();
    errors.length = 0;
    node = await startTestNode(overrides, undefined, { ...faulty.options, log });
    store = faulty.store;
  };
  afterEach(async () => {
    await node.destroy();
  });

  describe('on the default node', () => {
    beforeEach(() => start());

    it('answers a write that fails for want of space with -32000 naming the cause', async () => {
      store().failing = 'ENOSPC';
      const error = await rpcError(send(0));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.match(DISK_FULL);
    });

    it('answers a write the disk fails with an input/output error as a storage failure', async () => {
      store().failing = 'EIO';
      const error = await rpcError(send(0));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.match(/^storage failure: input\/output error \(EIO\) writing \S+000003\.log; /);
    });

    it('refuses the writes after a failed one with the same cause, before they reach the disk', async () => {
      store().failing = 'ENOSPC';
      await rpcError(send(0));
      const reached = store().reached;
      const later = [
        rpcError(send(0)),
        rpcError(rpc(node.url, 'eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }])),
        rpcError(rpc(node.url, 'evm_mine', [])),
        rpcError(rpc(node.url, 'eth_newBlockFilter', [])),
      ];
      for (const error of await Promise.all(later)) {
        expect(error.code).to.equal(-32000);
        expect(error.message).to.match(DISK_FULL);
      }
      expect(store().reached, 'writes that reached the disk after the failure').to.equal(reached);
    });

    it('goes on answering reads while writes are refused', async () => {
      const hash = await send(0);
      store().failing = 'ENOSPC';
      await rpcError(send(1));
      expect(await rpc(node.url, 'eth_blockNumber', [])).to.equal('0x1');
      expect(await node.call('eth_getBlockByNumber', ['latest', true])).to.have.nested.property('transactions[0].hash', hash);
      expect(await node.call('eth_getTransactionReceipt', [hash])).to.include({ status: '0x1', blockNumber: '0x1' });
      expect(await node.call('eth_getTransactionCount', [WALLETS[1].address, 'latest'])).to.equal('0x1');
      expect(await node.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])).to.deep.equal([]);
    });

    it('reports the fault on /health with 503 and the cause, and 200 once the store takes writes again', async () => {
      expect((await health(node.url)).status).to.equal(200);
      store().failing = 'ENOSPC';
      await rpcError(send(0));
      const faulted = await health(node.url);
      expect(faulted.status).to.equal(503);
      expect(faulted.body).to.include({ ok: false, number: 0 });
      expect(faulted.body.error).to.match(DISK_FULL);
      store().failing = undefined;
      expect(await recovered(), 'healthy again within 10 s').to.equal(true);
      expect((await health(node.url)).body).to.include({ ok: true, number: 0 }).and.not.have.property('error');
    });

    it('takes writes again once the store was re-opened and checked, and keeps what it acknowledged before and after', async () => {
      const before = await send(0);
      store().failing = 'ENOSPC';
      await rpcError(send(1));
      store().failing = undefined;
      expect(await recovered()).to.equal(true);
      const after = await send(1);
      await node.stop();

      const restarted = await startTestNode({}, node.dataDir);
      try {
        expect(await restarted.call('eth_blockNumber', [])).to.equal('0x2');
        expect(await restarted.call('eth_getTransactionReceipt', [before])).to.include({ blockNumber: '0x1', status: '0x1' });
        expect(await restarted.call('eth_getTransactionReceipt', [after])).to.include({ blockNumber: '0x2', status: '0x1' });
      } finally {
        await restarted.stop();
      }
    });

    it('leaves a run of anvil_mine that fails part-way at the last batch that landed, whole, and mines on from it once recovered', async () => {
      // 600 blocks: block 1 lands alone, blocks 2–257 in the next write, 258–513 in the one that fails.
      store().passing = 2;
      store().failing = 'ENOSPC';
      expect((await rpcError(rpc(node.url, 'anvil_mine', ['0x258']))).message).to.match(DISK_FULL);
      const head = await node.call('eth_getBlockByNumber', ['latest', false]);
      expect(head!.number).to.equal('0x101');
      expect(await node.call('eth_getBlockByNumber', ['0x102', false])).to.equal(null);
      await verifyProof(await node.call('eth_getProof', [DEV_ADDRESSES[0], [], 'latest']), head!.stateRoot);
      store().failing = undefined;
      expect(await recovered()).to.equal(true);
      await rpc(node.url, 'evm_mine', []);
      const next = await node.call('eth_getBlockByNumber', ['latest', false]);
      expect(next).to.include({ number: '0x102', parentHash: head!.hash });
      // Built on block 257's state, nothing of the failed batch's: EIP-2935's history contract has
      // block 257's hash, and no hash of the blocks that never landed (block 300's would be at slot 300).
      const history = '0x0000f90827f1c53a10cb7a02335b175320002935';
      expect(await node.call('eth_getStorageAt', [history, '0x101', 'latest'])).to.equal(head!.hash);
      expect(BigInt(await node.call('eth_getStorageAt', [history, '0x12c', 'latest']))).to.equal(0n);
      await verifyProof(await node.call('eth_getProof', [DEV_ADDRESSES[0], [], 'latest']), next!.stateRoot);
    });

    it('keeps a filter whose poll could not record its cursor: the next poll reports the same block', async () => {
      const id = await rpc<string>(node.url, 'eth_newBlockFilter', []);
      await send(0);
      const block = await node.call('eth_getBlockByNumber', ['latest', false]);
      store().failing = 'ENOSPC';
      expect((await rpcError(rpc(node.url, 'eth_getFilterChanges', [id]))).message).to.match(DISK_FULL);
      store().failing = undefined;
      expect(await recovered()).to.equal(true);
      expect(await rpc(node.url, 'eth_getFilterChanges', [id])).to.deep.equal([block!.hash]);
    });

    it('keeps a filter it could not uninstall', async () => {
      const id = await rpc<string>(node.url, 'eth_newBlockFilter', []);
      store().failing = 'ENOSPC';
      expect((await rpcError(rpc(node.url, 'eth_uninstallFilter', [id]))).message).to.match(DISK_FULL);
      store().failing = undefined;
      expect(await recovered()).to.equal(true);
      expect(await rpc(node.url, 'eth_getFilterChanges', [id])).to.deep.equal([]);
      expect(await rpc(node.url, 'eth_uninstallFilter', [id])).to.equal(true);
    });

    it('serves every read in flight while the store re-opens', async () => {
      const hash = await send(0);
      let stop = false;
      let reads = 0;
      const failures: string[] = [];
      // Reads that reach LevelDB each time: the canonical index and the transaction index are not cached.
      const reader = async () => {
        while (!stop) {
          try {
            await rpc(node.url, 'eth_getBlockByNumber', ['0x0', false]);
            await rpc(node.url, 'eth_getTransactionByHash', [hash]);
            await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
            reads += 3;
          } catch (error) {
            failures.push((error as Error).message);
          }
        }
      };
      const readers = Array.from({ length: 4 }, reader);
      store().failing = 'ENOSPC';
      await rpcError(send(1));
      store().failing = undefined;
      const healthy = await recovered();
      await sleep(100);
      stop = true;
      await Promise.all(readers);
      expect(healthy).to.equal(true);
      expect(failures).to.deep.equal([]);
      expect(reads).to.be.greaterThan(10);
    });
  });

  it('stops interval mining while writes are refused, logging the fault once, and mines the pool once they are taken again', async () => {
    await start({ blockTime: 1 });
    const hash = await send(0);
    store().failing = 'ENOSPC';
    await sleep(3_500);
    expect(errors.filter((message) => message.startsWith('storage: disk full'))).to.have.length(1);
    expect(errors.filter((message) => !message.startsWith('storage: '))).to.deep.equal([]);
    expect(await node.call('eth_getTransactionReceipt', [hash])).to.equal(null);
    store().failing = undefined;
    expect(await waitFor(async () => (await node.call('eth_getTransactionReceipt', [hash])) !== null, 10_000), 'mined after recovery').to.equal(true);
  });

  it('stops automine while writes are refused and mines the pooled transactions once they are taken again', async () => {
    await start({ mining: false });
    const hash = await send(0);
    store().failing = 'ENOSPC';
    await rpc(node.url, 'evm_setAutomine', [true]);
    await sleep(300);
    expect(await node.call('eth_getTransactionReceipt', [hash])).to.equal(null);
    store().failing = undefined;
    expect(await waitFor(async () => (await node.call('eth_getTransactionReceipt', [hash])) !== null, 10_000), 'mined after recovery').to.equal(true);
  });
});
