import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { JsonRpcProvider, Wallet, parseEther } from 'ethers';
import type { Block, Receipt } from '../generated/types.js';
import { DEV_ADDRESSES, DEV_KEYS, startTestNode, type TestNode } from './helpers/node.js';

interface Snapshot {
  genesis: Block;
  head: Block;
  balances: string[];
  nonce: string;
  receipt: Receipt | null;
}

/** Signs and sends a transfer with ethers, as a wallet would, and waits for it to be mined. */
async function sendWithEthers(url: string, value: bigint): Promise<string> {
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const wallet = new Wallet(DEV_KEYS[0], provider);
    const tx = await wallet.sendTransaction({ to: DEV_ADDRESSES[1], value });
    await tx.wait();
    return tx.hash;
  } finally {
    provider.destroy();
  }
}

async function snapshot(node: TestNode, txHash: string): Promise<Snapshot> {
  return {
    genesis: (await node.call('eth_getBlockByNumber', ['earliest', true]))!,
    head: (await node.call('eth_getBlockByNumber', ['latest', true]))!,
    balances: await Promise.all(DEV_ADDRESSES.map((a) => node.call('eth_getBalance', [a, 'latest']))),
    nonce: await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'latest']),
    receipt: await node.call('eth_getTransactionReceipt', [txHash]),
  };
}

describe('restart on an existing data dir', () => {
  let dir: string;
  let txHash: string;
  let before: Snapshot;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evm-node-restart-'));
    const node = await startTestNode({}, dir);
    try {
      txHash = await sendWithEthers(node.url, parseEther('1.5'));
      before = await snapshot(node, txHash);
    } finally {
      await node.stop();
    }
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('resumes the same chain: same genesis, same head, same state root', async () => {
    const node = await startTestNode({}, dir);
    try {
      const after = await snapshot(node, txHash);
      expect(after.genesis).to.deep.equal(before.genesis);
      expect(after.head.number).to.equal('0x1');
      expect(after.head).to.deep.equal(before.head);
      expect(after.head.stateRoot).to.equal(before.head.stateRoot);
    } finally {
      await node.destroy();
    }
  });

  it('answers the same balances, nonce and receipts after the restart', async () => {
    const node = await startTestNode({}, dir);
    try {
      const after = await snapshot(node, txHash);
      expect(before.receipt).to.include({ status: '0x1', transactionHash: txHash });
      expect(after.receipt).to.deep.equal(before.receipt);
      expect(after.balances).to.deep.equal(before.balances);
      expect(after.nonce).to.equal('0x1');
      expect(await node.call('eth_getTransactionByHash', [txHash])).to.deep.equal((before.head.transactions as unknown[])[0]);
    } finally {
      await node.destroy();
    }
  });

  it('keeps mining on top of the resumed head', async () => {
    const node = await startTestNode({}, dir);
    try {
      await sendWithEthers(node.url, 1n);
      const head = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
      expect(head.number).to.equal('0x2');
      expect(head.parentHash).to.equal(before.head.hash);
      expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'latest'])).to.equal('0x2');
    } finally {
      await node.destroy();
    }
  });

  it('resumes when the same genesis flags are given again', async () => {
    const node = await startTestNode({ chainId: 31337n, genesisFlagsGiven: true }, dir);
    try {
      expect((await node.call('eth_getBlockByNumber', ['latest', false]))!.hash).to.equal(before.head.hash);
    } finally {
      await node.destroy();
    }
  });

  it('refuses a different genesis on that dir, with a message naming the mismatch and the way out', async () => {
    const error = await startTestNode({ chainId: 999n, genesisFlagsGiven: true }, dir).then(
      async (node) => {
        await node.destroy();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error, 'the node should refuse to start').to.be.instanceOf(Error);
    const message = (error as Error).message;
    expect(message).to.include(before.genesis.hash);
    expect(message).to.match(/chain id 31337\b.*chain id 999\b/);
    expect(message).to.match(/--data-dir/);
  });

  it('refuses a genesis with other allocations, naming both genesis hashes', async () => {
    const error = await startTestNode({ balance: 1n, genesisFlagsGiven: true }, dir).then(
      async (node) => {
        await node.destroy();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error, 'the node should refuse to start').to.be.instanceOf(Error);
    expect((error as Error).message).to.match(new RegExp(`genesis ${before.genesis.hash}, but the configured genesis is 0x[0-9a-f]{64}`));
  });

  it('leaves the dir usable after refusing a different genesis', async () => {
    await startTestNode({ chainId: 999n, genesisFlagsGiven: true }, dir).then(
      (node) => node.destroy(),
      () => undefined,
    );
    const node = await startTestNode({}, dir);
    try {
      expect((await node.call('eth_getBlockByNumber', ['latest', false]))!.hash).to.equal(before.head.hash);
      expect(await node.call('eth_chainId', [])).to.equal('0x7a69');
    } finally {
      await node.destroy();
    }
  });

  it('resumes a chain made with other genesis flags when restarted without any', async () => {
    const other = await mkdtemp(join(tmpdir(), 'evm-node-restart-'));
    try {
      const first = await startTestNode({ chainId: 1337n, genesisFlagsGiven: true }, other);
      const genesis = (await first.call('eth_getBlockByNumber', ['earliest', false]))!.hash;
      await first.stop();
      const second = await startTestNode({}, other);
      try {
        expect(await second.call('eth_chainId', [])).to.equal('0x539');
        expect((await second.call('eth_getBlockByNumber', ['earliest', false]))!.hash).to.equal(genesis);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
