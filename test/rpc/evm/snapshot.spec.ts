import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('evm_snapshot', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('answers ids counting up from 0x1', async () => {
    expect(await node.call('evm_snapshot', [])).to.equal('0x1');
    expect(await node.call('evm_snapshot', [])).to.equal('0x2');
    expect(await node.call('evm_snapshot', [])).to.equal('0x3');
  });

  it('changes nothing: no block, same head', async () => {
    const head = await node.call('eth_getBlockByNumber', ['latest', false]);
    await node.call('evm_snapshot', []);
    expect(await node.call('eth_getBlockByNumber', ['latest', false])).to.deep.equal(head);
  });

  it('lives in memory only: after a restart its id reverts to nothing', async () => {
    const id = await node.call('evm_snapshot', []);
    await node.stop();
    node = await startTestNode({}, node.dataDir);
    expect(await node.call('evm_revert', [id])).to.equal(false);
  });
});
