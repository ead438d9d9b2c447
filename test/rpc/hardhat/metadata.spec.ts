import { expect } from 'chai';
import { blockAt } from '../../helpers/dev-calls.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('hardhat_metadata', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('names the client, the chain and the head, in Hardhat’s shape', async () => {
    await node.call('evm_mine', []);
    const metadata = await node.call('hardhat_metadata', []);
    expect(metadata).to.include({ clientVersion: await node.call('web3_clientVersion', []), chainId: 31337, latestBlockNumber: 1, latestBlockHash: (await blockAt(node, 'latest')).hash });
  });

  it('keeps its instance id for the run, and draws a new one on a reset', async () => {
    const { instanceId } = await node.call('hardhat_metadata', []);
    expect((await node.call('hardhat_metadata', [])).instanceId).to.equal(instanceId);
    await node.call('hardhat_reset', []);
    expect((await node.call('hardhat_metadata', [])).instanceId).to.not.equal(instanceId);
  });

  it('draws a new instance id for each run of the node', async () => {
    const { instanceId } = await node.call('hardhat_metadata', []);
    await node.stop();
    node = await startTestNode({}, node.dataDir);
    expect((await node.call('hardhat_metadata', [])).instanceId).to.not.equal(instanceId);
  });
});
