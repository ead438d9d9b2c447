import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

describe('eth_uninstallFilter', () => {
  let node: TestNode;

  before(async () => {
    node = await startTestNode({ maxFilters: 2 });
  });
  after(async () => node.destroy());

  it('answers true once, then false; the id is then unknown', async () => {
    for (const make of [
      () => node.call('eth_newFilter', [{}]),
      () => node.call('eth_newBlockFilter', []),
      () => node.call('eth_newPendingTransactionFilter', []),
    ]) {
      const id = await make();
      expect(await node.call('eth_uninstallFilter', [id])).to.equal(true);
      expect(await node.call('eth_uninstallFilter', [id])).to.equal(false);
      await expectRpcError(node.call('eth_getFilterChanges', [id]), -32000, 'filter not found');
    }
  });

  it('answers false for an id never issued', async () => {
    expect(await node.call('eth_uninstallFilter', ['0xdeadbeef'])).to.equal(false);
  });

  it('frees a place under --max-filters', async () => {
    const first = await node.call('eth_newBlockFilter', []);
    const second = await node.call('eth_newFilter', [{}]);
    await expectRpcError(node.call('eth_newPendingTransactionFilter', []), -32005, /too many filters: the limit is 2.*eth_uninstallFilter/);
    expect(await node.call('eth_uninstallFilter', [first])).to.equal(true);
    const third = await node.call('eth_newPendingTransactionFilter', []);
    for (const id of [second, third]) expect(await node.call('eth_uninstallFilter', [id])).to.equal(true);
  });
});
