// Forking: a call or a transaction that reads many cold slots one after another (a multicall, a
// swap's route) asks the remote for its access list once it has waited for the remote three times,
// and fetches what that names at once — a few round trips where it waited one per slot.
import { expect } from 'chai';
import { decodeFunctionResult, encodeFunctionData, toHex, type Abi, type Hex } from 'viem';
import { contracts, deployContract } from '../helpers/contracts.js';
import { balanceOfData, CountingProxy, direct, holderAt, seedRemote, startFork, transferData, type ForkingNode, type SeededRemote } from '../helpers/fork-remote.js';
import { DEV_ADDRESSES } from '../helpers/node.js';

const batchAbi = () => contracts().Batch.abi as unknown as Abi;
const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000';

/** A seeded remote with a Batch contract, behind a proxy that refuses `refused`, and a node forking it at its head. */
function batchFixture(refused: string[] = []) {
  const f = {} as { remote: SeededRemote; batch: Hex; deepTx: Hex; forkBlock: bigint; proxy: CountingProxy; fork: ForkingNode };
  before(async () => {
    f.remote = await seedRemote({ blocks: 3, perBlock: 40 });
    // The remote's default sender, which pays for what it is asked to run from nobody, is rich, as mainnet's is.
    await f.remote.node.call('anvil_setBalance', [ZERO_ADDRESS, toHex(10n ** 22n)]);
    f.batch = await deployContract(f.remote.node, 'Batch');
    // A transaction of the remote's history that read 30 balances no other test reads.
    const unread = unreadHolders(500, 30);
    f.deepTx = (await f.remote.node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[2], ...balancesCall(f, unread), gas: '0x400000' }])) as Hex;
    f.forkBlock = BigInt(await direct<Hex>(f.remote, 'eth_blockNumber', []));
    f.proxy = await CountingProxy.start(f.remote.node.url);
    for (const method of refused) f.proxy.refused.add(method);
    f.fork = await startFork(f.proxy.url, { blockNumber: f.forkBlock });
    // A first read brings the token's account and code, which every test's batch reads first.
    await f.fork.call('eth_call', [{ to: f.remote.token, data: balanceOfData(f.remote.holders[0]) }, 'latest']);
    await f.proxy.quiet();
  });
  after(async () => {
    await f.fork?.destroy();
    await f.proxy?.close();
    await f.remote?.node.destroy();
  });
  return f;
}

/** `count` addresses from the `first`th on that hold no tokens and that no other test reads: cold slots. */
const unreadHolders = (first: number, count: number) => Array.from({ length: count }, (_, i) => holderAt(first + i));

/** The balances a Batch.read of balanceOf calls answers. */
const balancesIn = (data: Hex) => (decodeFunctionResult({ abi: batchAbi(), functionName: 'read', data }) as readonly Hex[]).map((word) => BigInt(word));

/** A call of Batch.read: balanceOf of each of `holders` on the token, one after another. */
const balancesCall = (f: { remote: SeededRemote; batch: Hex }, holders: Hex[]) => ({
  to: f.batch,
  data: encodeFunctionData({ abi: batchAbi(), functionName: 'read', args: [holders.map((holder) => ({ target: f.remote.token, data: balanceOfData(holder) }))] }),
});

describe('forking: a run that reads many cold slots', () => {
  const f = batchFixture();
  const holders = (from: number, count: number) => f.remote.holders.slice(from, from + count);

  it('answers a call reading 30 cold balances after five round trips, its access list asked of the remote once', async () => {
    const call = balancesCall(f, holders(1, 30));
    f.proxy.reset();
    expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(await direct(f.remote, 'eth_call', [call, toHex(f.forkBlock)]));
    const counts = f.proxy.reset();
    expect(counts.calls.eth_createAccessList).to.equal(1);
    // Three slots met one by one, the list beside the third, then the rest at once: 30 without it.
    expect(counts.http).to.be.at.most(5);
  });

  it('asks no access list for a call that waits for the remote fewer than three times', async () => {
    const [a, b] = holders(31, 2);
    f.proxy.reset();
    expect(await f.fork.call('eth_call', [balancesCall(f, [a, b]), 'latest'])).to.equal(await direct(f.remote, 'eth_call', [balancesCall(f, [a, b]), toHex(f.forkBlock)]));
    const counts = f.proxy.reset();
    expect(counts.calls.eth_createAccessList).to.equal(undefined);
    expect(counts.http).to.equal(2);
  });

  it('estimates the gas of a call reading 20 cold balances as the remote does, asking for its access list once over all the estimate’s runs', async () => {
    const call = { from: DEV_ADDRESSES[0], ...balancesCall(f, holders(33, 20)) };
    f.proxy.reset();
    expect(await f.fork.call('eth_estimateGas', [call, 'latest'])).to.equal(await direct(f.remote, 'eth_estimateGas', [call, toHex(f.forkBlock)]));
    expect(f.proxy.reset().calls.eth_createAccessList).to.equal(1);
  });

  it('answers from its own state where it moved on from the remote’s: what the list names is only fetched', async () => {
    const moved = holders(53, 10);
    const sender = f.remote.holders[0];
    await f.fork.call('anvil_impersonateAccount', [sender]);
    await f.fork.call('eth_sendTransaction', [{ from: sender, to: f.remote.token, data: transferData(moved[3], 5n), gas: '0x30000' }]);
    f.proxy.reset();
    const answer = (await f.fork.call('eth_call', [balancesCall(f, moved), 'latest'])) as Hex;
    expect(f.proxy.reset().calls.eth_createAccessList).to.equal(1);
    const remote = await Promise.all(moved.map(async (holder) => BigInt(await direct<Hex>(f.remote, 'eth_call', [{ to: f.remote.token, data: balanceOfData(holder) }, toHex(f.forkBlock)]))));
    expect(balancesIn(answer)).to.deep.equal(remote.map((balance, i) => (i === 3 ? balance + 5n : balance)));
  });

  it('mines a transaction reading 30 cold balances after five round trips, the slots fetched as proofs, and runs it as the remote does', async () => {
    const request = { from: DEV_ADDRESSES[1], ...balancesCall(f, holders(63, 30)), gas: '0x400000' };
    f.proxy.reset();
    const hash = (await f.fork.call('eth_sendTransaction', [request])) as Hex;
    const receipt = (await f.fork.call('eth_getTransactionReceipt', [hash]))!;
    const counts = f.proxy.reset();
    expect(receipt.status).to.equal('0x1');
    expect(counts.calls.eth_createAccessList).to.equal(1);
    expect(counts.calls.eth_getStorageValues).to.equal(undefined);
    expect(counts.http).to.be.at.most(6);
    // The same transaction on the remote itself, past the fork block: the same gas.
    const remoteHash = await direct<Hex>(f.remote, 'eth_sendTransaction', [request]);
    expect(receipt.gasUsed).to.equal((await direct<{ gasUsed: Hex }>(f.remote, 'eth_getTransactionReceipt', [remoteHash])).gasUsed);
  });

  it('simulates a call reading 20 cold balances (eth_simulateV1) after a few round trips, its access list asked of the remote once', async () => {
    const call = { from: DEV_ADDRESSES[0], ...balancesCall(f, unreadHolders(600, 20)) };
    f.proxy.reset();
    const [block] = (await f.fork.call('eth_simulateV1', [{ blockStateCalls: [{ calls: [call] }] }, 'latest'])) as { calls: { returnData: Hex; status: Hex }[] }[];
    const counts = f.proxy.reset();
    expect(block.calls[0].status).to.equal('0x1');
    expect(block.calls[0].returnData).to.equal(await direct(f.remote, 'eth_call', [call, toHex(f.forkBlock)]));
    expect(counts.calls.eth_createAccessList).to.equal(1);
    expect(counts.http).to.be.at.most(6);
  });

  it('traces a remote transaction that read 30 cold balances as the remote does, after a few round trips', async () => {
    f.proxy.reset();
    const trace = await f.fork.call('debug_traceTransaction', [f.deepTx, { tracer: 'callTracer' }]);
    const counts = f.proxy.reset();
    expect(trace).to.deep.equal(await direct(f.remote, 'debug_traceTransaction', [f.deepTx, { tracer: 'callTracer' }]));
    expect(counts.calls.eth_createAccessList).to.equal(1);
    // The transaction and its block, what the block's start reads, three slots met one by one, the list, the rest at once: 30 more without it.
    expect(counts.http).to.be.at.most(10);
  });

  it('asks again without the sender where the remote’s chain gives the sender too little to pay for the run', async () => {
    const call = { from: '0x00000000000000000000000000000000000b0b01' as Hex, ...balancesCall(f, holders(99, 12)) };
    await f.fork.call('anvil_setBalance', [call.from, toHex(10n ** 20n)]);
    f.proxy.reset();
    expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(await direct(f.remote, 'eth_call', [call, toHex(f.forkBlock)]));
    const counts = f.proxy.reset();
    expect(counts.calls.eth_createAccessList).to.equal(2);
    expect(counts.http).to.be.at.most(6);
  });

  it('leaves out an access list answer of the wrong shape, and reads what the call meets', async () => {
    f.proxy.edits.eth_createAccessList = async () => ({ accessList: [{ address: 'nowhere', storageKeys: [1] }, 'junk'], gasUsed: '0x0' });
    try {
      const call = balancesCall(f, holders(111, 6));
      f.proxy.reset();
      expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(await direct(f.remote, 'eth_call', [call, toHex(f.forkBlock)]));
      const counts = f.proxy.reset();
      expect(counts.calls.eth_createAccessList).to.equal(1);
      // What the call met, each slot once (fewer where another test's proof brought one).
      expect(counts.slots).to.be.at.most(6);
    } finally {
      delete f.proxy.edits.eth_createAccessList;
    }
  });
});

describe('forking: a run that reads many cold slots, from a remote that serves no eth_createAccessList', () => {
  const f = batchFixture(['eth_createAccessList']);
  const holders = (from: number, count: number) => f.remote.holders.slice(from, from + count);

  it('reads what the call meets, one round trip each, and asks the remote for an access list once only', async () => {
    for (const from of [1, 11]) {
      const call = balancesCall(f, holders(from, 8));
      f.proxy.reset();
      expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(await direct(f.remote, 'eth_call', [call, toHex(f.forkBlock)]));
      const counts = f.proxy.reset();
      expect(counts.calls.eth_createAccessList).to.equal(from === 1 ? 1 : undefined);
      expect(counts.calls.eth_getStorageValues).to.equal(8);
    }
  });
});

describe('forking: a run that reads many cold slots, from a remote that serves no eth_getProof', () => {
  const f = batchFixture(['eth_getProof']);

  it('fetches what the remote’s access list names as plain values, at once', async () => {
    const call = balancesCall(f, f.remote.holders.slice(1, 31));
    f.proxy.reset();
    expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(await direct(f.remote, 'eth_call', [call, toHex(f.forkBlock)]));
    const counts = f.proxy.reset();
    expect(counts.calls.eth_createAccessList).to.equal(1);
    expect(counts.calls.eth_getProof).to.equal(undefined);
    expect(counts.http).to.be.at.most(5);
  });
});
