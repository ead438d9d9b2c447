// Forking: history at and below the fork block comes from the remote, as the remote answers it,
// and is kept: asked again, it costs no remote call. Log ranges spanning the fork block are merged.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Hex } from 'viem';
import { balanceOfData, direct, forkFixture, startFork, transferData, type ForkingNode } from '../helpers/fork-remote.js';
import { DEV_ADDRESSES } from '../helpers/node.js';

const hex = (n: bigint) => `0x${n.toString(16)}`;
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

describe('forking: history at and below the fork block', () => {

  const f = forkFixture();

  it('takes a receipt that carries its block’s timestamp (as geth’s do) in one remote call, its block unread', async () => {
    f.proxy.edits.eth_getTransactionReceipt = async (receipt) => {
      const { blockNumber } = receipt as { blockNumber: string };
      const { timestamp } = await direct<{ timestamp: string }>(f.remote, 'eth_getBlockByNumber', [blockNumber, false]);
      return { ...(receipt as object), blockTimestamp: timestamp };
    };
    try {
      const hash = f.remote.transfers[3];
      f.proxy.reset();
      expect(await f.fork.call('eth_getTransactionReceipt', [hash])).to.deep.equal(await direct(f.remote, 'eth_getTransactionReceipt', [hash]));
      expect(f.proxy.reset().calls).to.deep.equal({ eth_getTransactionReceipt: 1 });
    } finally {
      f.proxy.edits = {};
    }
  });

  it('answers blocks below and at the fork block as the remote does, by number and by hash', async () => {
    for (let n = 0n; n <= f.remote.forkBlock; n++) {
      const theirs = await direct<{ hash: string }>(f.remote, 'eth_getBlockByNumber', [hex(n), true]);
      expect(await f.fork.call('eth_getBlockByNumber', [hex(n), true]), `block ${n}`).to.deep.equal(theirs);
      expect(await f.fork.call('eth_getBlockByHash', [theirs.hash, false])).to.deep.equal(await direct(f.remote, 'eth_getBlockByHash', [theirs.hash, false]));
    }
  });

  it('answers a block’s size as the remote reports it (anvil leaves the empty withdrawals list out), also from the fork cache after a restart', async () => {
    const smaller = async (block: unknown) => ({ ...(block as object), size: hex(BigInt((block as { size: string }).size) - 1n) });
    f.proxy.edits = { eth_getBlockByNumber: smaller, eth_getBlockByHash: smaller };
    const cacheDir = await mkdtemp(join(tmpdir(), 'evm-node-fork-cache-'));
    try {
      const sizes = async (node: ForkingNode) => {
        const read = [];
        for (let n = 0n; n <= f.remote.forkBlock; n++) read.push((await node.call('eth_getBlockByNumber', [hex(n), false]))!.size);
        return read;
      };
      const theirs = [];
      for (let n = 0n; n <= f.remote.forkBlock; n++) theirs.push(hex(BigInt((await direct<{ size: string }>(f.remote, 'eth_getBlockByNumber', [hex(n), false])).size) - 1n));
      const first = await startFork(f.proxy.url, { blockNumber: f.remote.forkBlock }, {}, cacheDir);
      try {
        expect(await sizes(first)).to.deep.equal(theirs);
      } finally {
        await first.destroy();
      }
      f.proxy.reset();
      const second = await startFork(f.proxy.url, { blockNumber: f.remote.forkBlock }, {}, cacheDir);
      try {
        expect(await sizes(second)).to.deep.equal(theirs);
        expect(f.proxy.reset().calls.eth_getBlockByNumber, 'only the fork block, at start').to.equal(1);
      } finally {
        await second.destroy();
      }
    } finally {
      f.proxy.edits = {};
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it('answers "earliest" with the remote’s first block, not the fork block', async () => {
    expect((await f.fork.call('eth_getBlockByNumber', ['earliest', false]))?.number).to.equal('0x0');
  });

  it('answers the remote’s transactions and receipts as the remote does', async () => {
    for (const hash of [f.remote.transfers[0], f.remote.transfers.at(-1)!]) {
      expect(await f.fork.call('eth_getTransactionReceipt', [hash])).to.deep.equal(await direct(f.remote, 'eth_getTransactionReceipt', [hash]));
      expect(await f.fork.call('eth_getTransactionByHash', [hash])).to.deep.equal(await direct(f.remote, 'eth_getTransactionByHash', [hash]));
    }
    const at = hex(f.remote.forkBlock);
    expect(await f.fork.call('eth_getBlockReceipts', [at])).to.deep.equal(await direct(f.remote, 'eth_getBlockReceipts', [at]));
  });

  it('asks the remote nothing for history it has answered once', async () => {
    f.proxy.reset();
    await f.fork.call('eth_getBlockByNumber', ['0x2', true]);
    await f.fork.call('eth_getTransactionReceipt', [f.remote.transfers[0]]);
    await f.fork.call('eth_getBlockReceipts', [hex(f.remote.forkBlock)]);
    expect(f.proxy.reset().total).to.equal(0);
  });

  it('answers a transaction the remote never mined with null, and remembers it a while', async () => {
    const unknown = `0x${'ab'.repeat(32)}` as Hex;
    f.proxy.reset();
    expect(await f.fork.call('eth_getTransactionReceipt', [unknown])).to.equal(null);
    expect(await f.fork.call('eth_getTransactionReceipt', [unknown])).to.equal(null);
    expect(f.proxy.reset().total).to.equal(1);
  });

  it('does not keep a null the remote answered for good: a provider’s backend behind the others answers null for what the chain has', async () => {
    const hash = f.remote.transfers[5];
    const cacheDir = await mkdtemp(join(tmpdir(), 'evm-node-fork-cache-'));
    try {
      const first = await startFork(f.proxy.url, { blockNumber: f.remote.forkBlock }, {}, cacheDir);
      f.proxy.edits.eth_getTransactionReceipt = async () => null;
      try {
        expect(await first.call('eth_getTransactionReceipt', [hash])).to.equal(null);
      } finally {
        f.proxy.edits = {};
        await first.destroy();
      }
      const second = await startFork(f.proxy.url, { blockNumber: f.remote.forkBlock }, {}, cacheDir);
      try {
        expect(await second.call('eth_getTransactionReceipt', [hash])).to.deep.equal(await direct(f.remote, 'eth_getTransactionReceipt', [hash]));
      } finally {
        await second.destroy();
      }
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it('runs calls and traces at a block before the fork on the remote’s state at that block', async () => {
    const before = hex(f.remote.forkBlock - 1n);
    const call = { to: f.remote.token, data: balanceOfData(f.remote.holders[0]) };
    expect(await f.fork.call('eth_call', [call, before])).to.equal(await direct(f.remote, 'eth_call', [call, before]));
    const hash = f.remote.transfers.at(-1)!;
    expect(await f.fork.call('debug_traceTransaction', [hash, { tracer: 'callTracer' }])).to.deep.equal(await direct(f.remote, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]));
  });

  it('merges logs of a range spanning the fork block: the remote’s, then the fork’s own', async () => {
    await f.fork.call('anvil_impersonateAccount', [DEV_ADDRESSES[0]]);
    const hash = await f.fork.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: f.remote.token, data: transferData(f.remote.holders[0], 5n) }]);
    const filter = { address: f.remote.token, topics: [TRANSFER], fromBlock: '0x0', toBlock: 'latest' };
    const logs = await f.fork.call('eth_getLogs', [filter]);
    const theirs = await direct<unknown[]>(f.remote, 'eth_getLogs', [{ ...filter, toBlock: hex(f.remote.forkBlock) }]);
    expect(logs.slice(0, theirs.length)).to.deep.equal(theirs);
    expect(logs.slice(theirs.length).map((log) => log.transactionHash)).to.deep.equal([hash]);
  });

  for (const [provider, error, holder] of [
    ['Infura', { code: -32005, message: 'query returned more than 10000 results' }, 1],
    ['Alchemy', { code: -32602, message: 'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size.' }, 2],
  ] as const) {
    it(`asks for a log range the remote refuses as too large (${provider}'s words) again in halves, and answers every log`, async () => {
      f.proxy.logRange = { blocks: 2n, error };
      try {
        // Transfers to one holder (each test its own: the fork keeps what it was answered).
        const keyed = { address: f.remote.token, topics: [TRANSFER, null, `0x${f.remote.holders[holder].slice(2).padStart(64, '0')}`], fromBlock: '0x0', toBlock: hex(f.remote.forkBlock) };
        f.proxy.reset();
        const logs = await f.fork.call('eth_getLogs', [keyed]);
        expect(logs).to.deep.equal(await direct(f.remote, 'eth_getLogs', [keyed]));
        expect(logs).to.have.length(1);
        const counts = f.proxy.reset();
        expect(counts.calls.eth_getLogs).to.be.greaterThan(1);
        expect(counts.total).to.equal(counts.calls.eth_getLogs);
      } finally {
        f.proxy.logRange = undefined;
      }
    });
  }

  it('sends no receipt request to the remote for a transaction of its own pool', async () => {
    await f.fork.call('evm_setAutomine', [false]);
    try {
      const hash = await f.fork.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
      f.proxy.reset();
      expect(await f.fork.call('eth_getTransactionReceipt', [hash])).to.equal(null);
      expect(f.proxy.reset().total).to.equal(0);
    } finally {
      await f.fork.call('evm_setAutomine', [true]);
    }
  });
});

describe('forking: eth_feeHistory over blocks below the fork block', () => {
  const f = forkFixture({ blocks: 12, perBlock: 2 });

  it('answers as the remote does, reading the blocks in one request and their receipts in another, not a round trip each', async () => {
    const newest = hex(f.remote.forkBlock);
    const count = hex(f.remote.forkBlock + 1n);
    f.proxy.reset();
    expect(await f.fork.call('eth_feeHistory', [count, newest, [25, 75]])).to.deep.equal(await direct(f.remote, 'eth_feeHistory', [count, newest, [25, 75]]));
    const { http, calls } = f.proxy.reset();
    expect(calls.eth_getBlockByNumber).to.equal(Number(f.remote.forkBlock));
    expect(http).to.equal(2);
  });
});

describe('forking: history of a remote that serves no eth_getBlockReceipts (Hardhat, Ganache)', () => {
  const f = forkFixture({ blocks: 6, perBlock: 2 });
  before(() => {
    f.proxy.refused.add('eth_getBlockReceipts');
    f.proxy.refusal = { code: -32004, message: (method) => `Method ${method} is not supported` };
  });

  it('answers eth_feeHistory’s rewards and eth_getLogs of a block by hash from each transaction’s receipt, and asks for no block’s receipts once refused', async () => {
    const newest = hex(f.remote.forkBlock);
    expect(await f.fork.call('eth_feeHistory', ['0x3', newest, [25, 75]])).to.deep.equal(await direct(f.remote, 'eth_feeHistory', ['0x3', newest, [25, 75]]));
    const { hash } = await direct<{ hash: string }>(f.remote, 'eth_getBlockByNumber', [hex(f.remote.forkBlock - 4n), false]);
    f.proxy.reset();
    expect(await f.fork.call('eth_getLogs', [{ blockHash: hash }])).to.deep.equal(await direct(f.remote, 'eth_getLogs', [{ blockHash: hash }]));
    const { calls } = f.proxy.reset();
    expect(calls.eth_getBlockReceipts).to.equal(undefined);
    expect(calls.eth_getTransactionReceipt).to.be.greaterThan(0);
  });
});
