// The trace that used to take the node down (a loop touching a megabyte of memory, traced with
// memory for a minute: 4.2 GB, then out of memory), on a node process of its own as users run it:
// the default budget stops it, the node lives, and gives the memory back once it is idle.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { spawnNode, type ChildNode } from '../../helpers/child-node.js';
import { DEV_ADDRESSES } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';
import { until } from '../../helpers/wait.js';

/** MSTORE at 1 MiB - 32, then MLOAD in a loop until the gas runs out, as a contract creation's code. */
const MEMORY_LOOP = '0x6001620fffe0525b60005150600756';

async function residentMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}

describe('a trace past the default budget, on a node process', function () {
  this.timeout(120_000);
  let dir: string;
  let node: ChildNode;
  let hash: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evm-node-trace-memory-'));
    node = await spawnNode(dir);
    hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], data: MEMORY_LOOP, gas: '0x2dc6c0' }]);
    expect((await node.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x0');
  });
  after(async () => {
    await node?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers -32003 naming the limit, well within the minute asked; the node goes on and its memory comes back near where it was', async () => {
    const before = await residentMiB(node.pid);
    const started = performance.now();
    await expectRpcError(node.call('debug_traceTransaction', [hash, { enableMemory: true, timeout: '60s' }]), -32003, /^response too large: the struct trace passed 134217728 bytes of JSON/);
    expect(performance.now() - started).to.be.below(60_000);
    expect(await node.call('eth_blockNumber', [])).to.equal('0x1');
    // Generous: measured at ~10 % above `before` some 10 s later (docs/methods.md, Traces).
    await until(async () => (await residentMiB(node.pid)) < before * 1.5, `resident memory back under 1.5 × ${before.toFixed(0)} MiB`, 45_000);
    expect(node.stderr()).to.not.match(/heap out of memory|unhandled error/);
  });
});
