import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, expectRpcError, signTx, txHash } from '../../helpers/transactions.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('evm_setIntervalMining', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  it('a positive interval mines blocks on its own, with the pool’s transactions', async () => {
    const raw = await signTx({ key: devKey(0), nonce: 0 });
    await node.call('eth_sendRawTransaction', [raw]);
    expect(await node.call('evm_setIntervalMining', [100])).to.equal(true);
    const deadline = Date.now() + 5000;
    while ((await node.call('eth_getTransactionReceipt', [txHash(raw)])) === null && Date.now() < deadline) await sleep(25);
    expect((await node.call('eth_getTransactionReceipt', [txHash(raw)]))!.status).to.equal('0x1');
    const before = BigInt(await node.call('eth_blockNumber', []));
    await sleep(450);
    expect(BigInt(await node.call('eth_blockNumber', [])) >= before + 2n).to.equal(true);
  });

  it('0 stops it', async () => {
    expect(await node.call('evm_setIntervalMining', [0])).to.equal(true);
    await sleep(150);
    const stopped = await node.call('eth_blockNumber', []);
    await sleep(300);
    expect(await node.call('eth_blockNumber', [])).to.equal(stopped);
  });

  it('eth_sendRawTransaction in interval mode answers before the block (the receipt follows within an interval)', async () => {
    await node.call('evm_setIntervalMining', [300]);
    try {
      const raw = await signTx({ key: devKey(0), nonce: 1 });
      await node.call('eth_sendRawTransaction', [raw]);
      expect(await node.call('eth_getTransactionReceipt', [txHash(raw)])).to.equal(null);
      const deadline = Date.now() + 5000;
      while ((await node.call('eth_getTransactionReceipt', [txHash(raw)])) === null && Date.now() < deadline) await sleep(25);
      expect((await node.call('eth_getTransactionReceipt', [txHash(raw)]))!.status).to.equal('0x1');
    } finally {
      await node.call('evm_setIntervalMining', [0]);
    }
  });

  it('refuses an interval a timer cannot hold (over 2^31 − 1 ms) with -32602', async () => {
    await expectRpcError(node.call('evm_setIntervalMining', [2 ** 31]), -32602, /interval/);
  });
});
