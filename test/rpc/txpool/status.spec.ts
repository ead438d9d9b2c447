import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, signTx } from '../../helpers/transactions.js';

describe('txpool_status', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  it('an empty pool: 0x0 pending, 0x0 queued', async () => {
    expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x0' });
  });

  it('counts pending and queued transactions as hex quantities', async () => {
    for (let nonce = 0; nonce < 11; nonce++) await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(0), nonce })]);
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 1 })]);
    expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0xb', queued: '0x1' });
  });

  it('drops to the queued remainder once the pending ones are mined', async () => {
    await node.call('evm_mine', []);
    expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x1' });
  });
});
