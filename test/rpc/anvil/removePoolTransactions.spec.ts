import { expect } from 'chai';
import { getAddress } from 'viem';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, signTx } from '../../helpers/transactions.js';

describe('anvil_removePoolTransactions', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode({ mining: false });
  });
  afterEach(() => node.destroy());

  it('takes every transaction of the sender out of the pool, pending and queued, and answers null; other senders’ stay', async () => {
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0 })]);
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 2 })]);
    const kept = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(2), nonce: 0 })]);
    expect(await node.call('anvil_removePoolTransactions', [DEV_ADDRESSES[1]])).to.equal(null);
    const content = await node.call('txpool_content', []);
    expect(Object.keys(content.pending)).to.deep.equal([DEV_ADDRESSES[2]]);
    expect(content.pending[DEV_ADDRESSES[2]]['0'].hash).to.equal(kept);
    expect(content.queued).to.deep.equal({});
  });

  it('takes a checksummed address as well', async () => {
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0 })]);
    await node.call('anvil_removePoolTransactions', [getAddress(DEV_ADDRESSES[1])]);
    expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x0' });
  });
});
