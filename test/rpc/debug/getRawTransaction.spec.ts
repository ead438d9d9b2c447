import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, signTx, txHash } from '../../helpers/transactions.js';

describe('debug_getRawTransaction', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  it('a mined transaction: the bytes it was sent as', async () => {
    const raw = await signTx({ key: devKey(0), nonce: 0, kind: 'eip2930' });
    await node.call('eth_sendRawTransaction', [raw]);
    await node.call('evm_mine', []);
    expect(await node.call('debug_getRawTransaction', [txHash(raw)])).to.equal(raw);
  });

  it('a pooled transaction, not mined yet: the bytes it was sent as', async () => {
    const raw = await signTx({ key: devKey(1), nonce: 0, kind: 'legacy' });
    await node.call('eth_sendRawTransaction', [raw]);
    expect(await node.call('debug_getRawTransaction', [txHash(raw)])).to.equal(raw);
  });

  it('an unknown transaction: null', async () => {
    expect(await node.call('debug_getRawTransaction', [`0x${'12'.repeat(32)}`])).to.equal(null);
  });
});
