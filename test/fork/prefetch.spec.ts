// Forking: a contract of a code read before is fetched at the slots its kin were read at, with its
// first miss, in one request — not one round trip per slot.
import { expect } from 'chai';
import { encodeFunctionData, type Abi, type Hex } from 'viem';
import { contracts, deployContract } from '../helpers/contracts.js';
import { CountingProxy, direct, seedRemote, startFork, type ForkingNode, type SeededRemote } from '../helpers/fork-remote.js';

const read = (functionName: 'name' | 'symbol' | 'totalSupply') => encodeFunctionData({ abi: contracts().Token.abi as unknown as Abi, functionName });

describe('forking: slots fetched by the contract’s code', () => {
  let remote: SeededRemote;
  let proxy: CountingProxy;
  let fork: ForkingNode;
  let kin: Hex;
  let kin2: Hex;
  let kin3: Hex;
  before(async () => {
    remote = await seedRemote({ blocks: 1, perBlock: 2 });
    kin = await deployContract(remote.node, 'Token', ['Kin Token', 'KIN', 10n ** 20n]);
    kin2 = await deployContract(remote.node, 'Token', ['Kin Token 2', 'KIN2', 10n ** 20n]);
    kin3 = await deployContract(remote.node, 'Token', ['Kin Token 3', 'KIN3', 10n ** 20n]);
    proxy = await CountingProxy.start(remote.node.url);
    fork = await startFork(proxy.url, { blockNumber: BigInt(await remote.node.call('eth_blockNumber', [])) });
  });
  after(async () => {
    await fork?.destroy();
    await proxy?.close();
    await remote?.node.destroy();
  });

  it('reads a second token of the same code at the slots the first was read at, in one eth_getStorageValues', async () => {
    for (const name of ['name', 'symbol', 'totalSupply'] as const) await fork.call('eth_call', [{ to: remote.token, data: read(name) }, 'latest']);
    proxy.reset();
    expect(await fork.call('eth_call', [{ to: kin, data: read('name') }, 'latest'])).to.equal(await direct(remote, 'eth_call', [{ to: kin, data: read('name') }, 'latest']));
    // Its account's proof with its code (a call's target; the code is the first token's here, so the
    // node had it already, which it cannot know before the proof), then its slots' values.
    expect(proxy.reset().calls).to.deep.equal({ eth_getProof: 1, eth_getCode: 1, eth_getStorageValues: 1 });
    for (const name of ['symbol', 'totalSupply'] as const) {
      expect(await fork.call('eth_call', [{ to: kin, data: read(name) }, 'latest'])).to.equal(await direct(remote, 'eth_call', [{ to: kin, data: read(name) }, 'latest']));
    }
    expect(proxy.reset().total).to.equal(0);
  });

  it('asks for a call target’s code with its account until a target turns out a clone; the next clones are asked for their accounts alone', async () => {
    // The token's code is the node's; kin2's comes with its account for nothing: kin2 is a clone.
    for (const to of [remote.token, kin2]) await fork.call('eth_call', [{ to, data: read('name') }, 'latest']);
    proxy.reset();
    const call = { to: kin3, data: read('name') };
    expect(await fork.call('eth_call', [call, 'latest'])).to.equal(await direct(remote, 'eth_call', [call, 'latest']));
    expect(proxy.reset().calls).to.deep.equal({ eth_getProof: 1, eth_getStorageValues: 1 });
  });
});
