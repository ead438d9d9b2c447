import { expect } from 'chai';
import { blockAt } from '../../helpers/dev-calls.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('anvil_metadata', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('answers hardhat_metadata’s members in anvil’s shape: forkedNetwork null on a node that forks nothing', async () => {
    await node.call('evm_mine', []);
    const metadata = await node.call('anvil_metadata', []);
    expect(metadata).to.deep.equal({ ...(await node.call('hardhat_metadata', [])), forkedNetwork: null, snapshots: {} });
  });

  it('lists each live snapshot with the number and hash of the head it was taken at', async () => {
    const first = await node.call('evm_snapshot', []);
    const genesis = await blockAt(node, 'latest');
    await node.call('evm_mine', []);
    const second = await node.call('evm_snapshot', []);
    const mined = await blockAt(node, 'latest');
    expect((await node.call('anvil_metadata', [])).snapshots).to.deep.equal({ [first]: [0, genesis.hash], [second]: [1, mined.hash] });
  });

  it('forgets a snapshot reverted to, and every later one', async () => {
    const first = await node.call('evm_snapshot', []);
    await node.call('evm_mine', []);
    await node.call('evm_snapshot', []);
    await node.call('evm_revert', [first]);
    expect((await node.call('anvil_metadata', [])).snapshots).to.deep.equal({});
  });
});
