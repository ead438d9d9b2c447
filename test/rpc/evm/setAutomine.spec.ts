import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, signTx, txHash } from '../../helpers/transactions.js';

describe('evm_setAutomine', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('false: transactions stay in the pool', async () => {
    expect(await node.call('evm_setAutomine', [false])).to.equal(true);
    const raw = await signTx({ key: devKey(0), nonce: 0 });
    await node.call('eth_sendRawTransaction', [raw]);
    expect(await node.call('eth_getTransactionReceipt', [txHash(raw)])).to.equal(null);
    expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x1', queued: '0x0' });
    expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
  });

  it('true: what the pool holds is mined at once, and later transactions as they arrive', async () => {
    expect(await node.call('evm_setAutomine', [true])).to.equal(true);
    const deadline = Date.now() + 5000;
    while ((await node.call('txpool_status', [])).pending !== '0x0' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x0' });
    const raw = await signTx({ key: devKey(0), nonce: 1 });
    await node.call('eth_sendRawTransaction', [raw]);
    expect((await node.call('eth_getTransactionReceipt', [txHash(raw)]))!.status).to.equal('0x1');
  });
});
