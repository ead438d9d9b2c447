import { expect } from 'chai';
import { blockAt } from '../../helpers/dev-calls.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, signTx } from '../../helpers/transactions.js';

describe('anvil_dropAllTransactions', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode({ mining: false });
  });
  afterEach(() => node.destroy());

  it('empties the pool, pending and queued alike, and answers null; the next block holds none of them', async () => {
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0 })]);
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(2), nonce: 1 })]);
    expect(await node.call('anvil_dropAllTransactions', [])).to.equal(null);
    expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x0' });
    await node.call('evm_mine', []);
    expect((await blockAt(node, 'latest')).transactions).to.deep.equal([]);
  });

  it('leaves nothing to come back after a restart', async () => {
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0 })]);
    await node.call('anvil_dropAllTransactions', []);
    await node.stop();
    node = await startTestNode({ mining: false }, node.dataDir);
    expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x0' });
  });
});
