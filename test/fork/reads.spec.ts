// Forking: the state at the fork block, read lazily from the remote, byte for byte, and what it
// costs in remote calls — cold, warm, after a restart on the same cache, after a reset to the same block.
import { expect } from 'chai';
import type { Hex } from 'viem';
import { DEV_ADDRESSES } from '../helpers/node.js';
import { balanceOfData, direct, forkFixture, holderAt, startFork } from '../helpers/fork-remote.js';
import { expectRpcError } from '../helpers/transactions.js';

const hex = (n: bigint) => `0x${n.toString(16)}`;

describe('forking: state at the fork block', () => {
  const f = forkFixture();
  let at: string;
  before(() => {
    at = hex(f.remote.forkBlock);
  });

  it('starts at the fork block: its number, hash and state root are the remote’s', async () => {
    const mine = await f.fork.call('eth_getBlockByNumber', [at, false]);
    const theirs = await direct<{ hash: string; stateRoot: string }>(f.remote, 'eth_getBlockByNumber', [at, false]);
    expect(await f.fork.call('eth_blockNumber', [])).to.equal(at);
    expect(mine?.hash).to.equal(theirs.hash);
    expect(mine?.stateRoot).to.equal(theirs.stateRoot);
  });

  it('keeps the remote’s chain id', async () => {
    expect(await f.fork.call('eth_chainId', [])).to.equal(await direct(f.remote, 'eth_chainId', []));
  });

  it('reads balances, nonces, code and storage at the fork block as the remote answers them', async () => {
    const holder = f.remote.holders[3];
    for (const [method, params] of [
      ['eth_getTransactionCount', [DEV_ADDRESSES[0], at]],
      ['eth_getCode', [f.remote.token, at]],
      ['eth_getStorageAt', [f.remote.token, '0x2', at]],
      ['eth_getBalance', [holder, at]],
      ['eth_getCode', [holder, at]],
    ] as const) {
      expect(await f.fork.call(method as 'eth_getBalance', params as never), `${method}(${params.join(', ')})`).to.equal(await direct(f.remote, method, [...params]));
    }
  });

  it('answers eth_call as the remote does', async () => {
    for (const holder of f.remote.holders.slice(0, 4)) {
      const call = { to: f.remote.token, data: balanceOfData(holder) };
      expect(await f.fork.call('eth_call', [call, at])).to.equal(await direct(f.remote, 'eth_call', [call, at]));
    }
  });

  it('reads a cold slot for a call as one value, once; reading it again asks the remote nothing', async () => {
    const call = { to: f.remote.token, data: balanceOfData(f.remote.holders[7]) };
    f.proxy.reset();
    await f.fork.call('eth_call', [call, 'latest']);
    const cold = f.proxy.reset();
    // A slot no write passed by is the remote's: a call needs its value, not its proof.
    expect(cold.calls).to.deep.equal({ eth_getStorageValues: 1 });
    await f.fork.call('eth_call', [call, 'latest']);
    await f.fork.call('eth_call', [call, at]);
    expect(f.proxy.reset().total).to.equal(0);
  });

  it('sends reads that miss together as one batch, and the same slot asked twice at once once', async () => {
    const cold = f.remote.holders.slice(8, 16);
    f.proxy.reset();
    const answers = await Promise.all([...cold, ...cold].map((holder) => f.fork.call('eth_call', [{ to: f.remote.token, data: balanceOfData(holder) }, 'latest'])));
    const counts = f.proxy.reset();
    // Slots asked for in the same turn share one eth_getStorageValues.
    expect(Object.keys(counts.calls)).to.deep.equal(['eth_getStorageValues']);
    expect(counts.calls.eth_getStorageValues).to.be.at.most(cold.length);
    expect(counts.http).to.be.lessThan(cold.length);
    for (const [i, holder] of cold.entries()) {
      expect(answers[i]).to.equal(await direct(f.remote, 'eth_call', [{ to: f.remote.token, data: balanceOfData(holder) }, at]));
    }
  });

  it('asks the remote for each slot once while reads of one contract overlap in flight', async () => {
    const strangers = Array.from({ length: 8 }, (_, i) => holderAt(2000 + i));
    // One cold read first: the node learns the remote serves eth_getStorageValues, which carries any number of slots.
    await f.fork.call('eth_call', [{ to: f.remote.token, data: balanceOfData(holderAt(1999)) }, 'latest']);
    f.proxy.faults.latencyMs = 30;
    f.proxy.reset();
    let answers: string[];
    try {
      // Each read misses while the reads before it are still being fetched.
      answers = await Promise.all(
        strangers.map(async (holder, i) => {
          await new Promise((resolve) => setTimeout(resolve, 5 * i));
          return f.fork.call('eth_call', [{ to: f.remote.token, data: balanceOfData(holder) }, 'latest']);
        }),
      );
    } finally {
      f.proxy.faults.latencyMs = 0;
    }
    expect(f.proxy.reset().slots).to.equal(strangers.length);
    for (const [i, holder] of strangers.entries()) expect(answers[i]).to.equal(await direct(f.remote, 'eth_call', [{ to: f.remote.token, data: balanceOfData(holder) }, at]));
  });

  it('reads an account the remote does not have as absent, once', async () => {
    f.proxy.reset();
    expect(await f.fork.call('eth_getBalance', [holderAt(999), 'latest'])).to.equal('0x0');
    expect(await f.fork.call('eth_getBalance', [holderAt(999), 'latest'])).to.equal('0x0');
    expect(f.proxy.reset().calls).to.deep.equal({ eth_getProof: 1 });
  });

  it('gives the dev accounts their dev balance on the fork, and their nonce stays the remote’s', async () => {
    expect(BigInt(await f.fork.call('eth_getBalance', [DEV_ADDRESSES[1], 'latest']))).to.equal(10_000n * 10n ** 18n);
    expect(await f.fork.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'latest'])).to.equal(await direct(f.remote, 'eth_getTransactionCount', [DEV_ADDRESSES[0], at]));
  });

  it('names the fork in anvil_nodeInfo, hardhat_metadata and anvil_metadata: URL, block, hash, chain id', async () => {
    const { hash } = await direct<{ hash: string }>(f.remote, 'eth_getBlockByNumber', [at, false]);
    const info = await f.fork.call('anvil_nodeInfo', []);
    expect(info.forkConfig).to.deep.include({ forkUrl: f.proxy.url, forkBlockNumber: Number(f.remote.forkBlock), forkBlockHash: hash, forkChainId: 31337, offline: false, stateRoots: 'real' });
    const metadata = await f.fork.call('hardhat_metadata', []);
    expect(metadata.forkedNetwork).to.deep.equal({ chainId: 31337, forkBlockNumber: Number(f.remote.forkBlock), forkBlockHash: hash });
    expect((await f.fork.call('anvil_metadata', [])).forkedNetwork).to.deep.equal(metadata.forkedNetwork);
  });

  it('anvil_reset back to the fork block asks the remote nothing it asked before', async () => {
    const holders = f.remote.holders.slice(0, 16);
    const before = await Promise.all(holders.map((holder) => f.fork.call('eth_call', [{ to: f.remote.token, data: balanceOfData(holder) }, 'latest'])));
    f.proxy.reset();
    await f.fork.call('anvil_reset', [{ forking: { jsonRpcUrl: f.proxy.url, blockNumber: Number(f.remote.forkBlock) } }]);
    const after = await Promise.all(holders.map((holder) => f.fork.call('eth_call', [{ to: f.remote.token, data: balanceOfData(holder) }, 'latest'])));
    expect(after).to.deep.equal(before);
    expect(f.proxy.reset()).to.deep.equal({ http: 0, calls: {}, total: 0, mostPerRequest: {}, slots: 0 });
  });

  it('a new fork asks for its dev accounts’ proofs at most four to a request, sent at once (remotes answer a batch’s entries one by one)', async () => {
    f.proxy.reset();
    const fresh = await startFork(f.proxy.url, { blockNumber: f.remote.forkBlock });
    try {
      const started = f.proxy.reset();
      expect(started.calls.eth_getProof).to.be.at.least(DEV_ADDRESSES.length);
      expect(started.mostPerRequest.eth_getProof).to.equal(4);
      expect(started.http).to.be.at.least(Math.ceil(started.calls.eth_getProof / 4));
    } finally {
      await fresh.destroy();
    }
  });

  it('mines its first block with one remote request, for the slots of EIP-4788’s ring (they go by the block’s time): the rest of what the block’s system calls read it read as it started', async () => {
    const fresh = await startFork(f.proxy.url, { blockNumber: f.remote.forkBlock });
    try {
      // They go out as the node starts to serve: once they landed.
      await f.proxy.quiet();
      f.proxy.reset();
      await fresh.call('evm_mine', []);
      const { http, calls } = f.proxy.reset();
      expect({ http, calls }).to.deep.equal({ http: 1, calls: { eth_getProof: 1 } });
    } finally {
      await fresh.destroy();
    }
  });

  it('a second node on the same fork block and cache asks the remote for the fork block alone', async () => {
    const holders = f.remote.holders.slice(0, 16) as Hex[];
    await f.fork.stop();
    f.proxy.reset();
    const again = await startFork(f.proxy.url, { blockNumber: f.remote.forkBlock }, {}, f.fork.cacheDir);
    try {
      const started = f.proxy.reset();
      expect(started.calls).to.deep.equal({ eth_chainId: 1, eth_getBlockByNumber: 1 });
      expect(started.http).to.equal(1);
      for (const holder of holders) await again.call('eth_call', [{ to: f.remote.token, data: balanceOfData(holder) }, 'latest']);
      expect(f.proxy.reset().total).to.equal(0);
    } finally {
      await again.destroy();
    }
  });
});

describe('forking: a call’s first reads', () => {
  const f = forkFixture({ blocks: 1, perBlock: 2 });

  it('fetches the sender, the target and its code in one request before the call runs, then its slot: two round trips, not four', async () => {
    const call = { from: f.remote.holders[0], to: f.remote.token, data: balanceOfData(f.remote.holders[1]) };
    f.proxy.reset();
    expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(await direct(f.remote, 'eth_call', [call, hex(f.remote.forkBlock)]));
    const counts = f.proxy.reset();
    expect(counts.calls).to.deep.equal({ eth_getProof: 2, eth_getCode: 1, eth_getStorageValues: 1 });
    expect(counts.http).to.equal(2);
  });
});

describe('forking: anvil_reset on a fork', () => {
  const f = forkFixture({ blocks: 1, perBlock: 2 });

  it('fails a read it catches reading the remote with -32000 saying to send it again', async () => {
    f.proxy.faults.latencyMs = 200;
    try {
      const read = f.fork.call('eth_getBalance', [f.remote.holders[1], 'latest']);
      read.catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 50));
      await f.fork.call('anvil_reset', [{ forking: { jsonRpcUrl: f.proxy.url, blockNumber: Number(f.remote.forkBlock) - 1 } }]);
      await expectRpcError(read, -32000, /^the chain was reset while this request ran.*send it again$/);
    } finally {
      f.proxy.faults.latencyMs = 0;
    }
  });

  it('forks the remote’s head for a URL without a block, as anvil and Hardhat do; viem’s reset() (no URL, a null block) the fork block again', async () => {
    await direct(f.remote, 'evm_mine', []);
    const head = await direct<string>(f.remote, 'eth_blockNumber', []);
    expect(BigInt(head) > f.remote.forkBlock).to.equal(true);
    await f.fork.call('anvil_reset', [{ forking: { jsonRpcUrl: f.proxy.url } }]);
    expect(await f.fork.call('eth_blockNumber', [])).to.equal(head);
    await f.fork.call('hardhat_reset', [{ forking: { jsonRpcUrl: f.proxy.url, blockNumber: Number(f.remote.forkBlock) } }]);
    await f.fork.call('anvil_reset', [{ forking: { blockNumber: null } }]);
    expect(await f.fork.call('eth_blockNumber', [])).to.equal(hex(f.remote.forkBlock));
  });

  it('leaves the fork without options, as anvil and Hardhat do: the node’s dev genesis, nothing asked of the remote', async () => {
    f.proxy.reset();
    await f.fork.call('anvil_reset', []);
    expect(await f.fork.call('eth_blockNumber', [])).to.equal('0x0');
    expect(await f.fork.call('eth_getCode', [f.remote.token, 'latest'])).to.equal('0x');
    expect((await f.fork.call('anvil_nodeInfo', [])).forkConfig.forkUrl).to.equal(null);
    expect(f.proxy.reset().total).to.equal(0);
    // A fork asked for by name forks again.
    await f.fork.call('anvil_reset', [{ forking: { jsonRpcUrl: f.proxy.url, blockNumber: Number(f.remote.forkBlock) } }]);
    const holder = f.remote.holders[0];
    expect(await f.fork.call('eth_call', [{ to: f.remote.token, data: balanceOfData(holder) }, 'latest'])).to.equal(
      await direct(f.remote, 'eth_call', [{ to: f.remote.token, data: balanceOfData(holder) }, hex(f.remote.forkBlock)]),
    );
  });
});
