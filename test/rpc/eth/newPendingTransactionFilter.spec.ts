import { expect } from 'chai';
import { FILTER_ID } from '../../helpers/emitter-node.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_newPendingTransactionFilter', () => {
  let node: TestNode;
  const hashChanges = async (id: string) => (await node.call('eth_getFilterChanges', [id])) as string[];

  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(async () => node.destroy());

  it('reports the hash of each transaction admitted to the pool, once', async () => {
    const id = await node.call('eth_newPendingTransactionFilter', []);
    expect(id).to.match(FILTER_ID);
    const a = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: DEV_ADDRESSES[2], value: '0x1' }]);
    const b = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[2], to: DEV_ADDRESSES[1], value: '0x1' }]);
    expect(await hashChanges(id)).to.deep.equal([a, b]);
    expect(await hashChanges(id)).to.deep.equal([]);
    // Mining them is no news to this filter.
    await node.call('evm_mine', []);
    expect(await hashChanges(id)).to.deep.equal([]);
  });

  it('reports nothing admitted before it was created', async () => {
    await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: DEV_ADDRESSES[2], value: '0x1' }]);
    const id = await node.call('eth_newPendingTransactionFilter', []);
    expect(await hashChanges(id)).to.deep.equal([]);
    const c = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: DEV_ADDRESSES[2], value: '0x2' }]);
    expect(await hashChanges(id)).to.deep.equal([c]);
    await node.call('evm_mine', []);
  });
});
