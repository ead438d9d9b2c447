import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, expectRpcError, signTx, txHash } from '../../helpers/transactions.js';
import { until, withIntervalClock } from '../../helpers/wait.js';

describe('evm_setIntervalMining', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  const head = async () => BigInt(await node.call('eth_blockNumber', []));
  const mined = (raw: `0x${string}`) => async () => (await node.call('eth_getTransactionReceipt', [txHash(raw)])) !== null;

  it('a positive interval mines a block each interval, with the pool’s transactions', async () => {
    await withIntervalClock(async (tick) => {
      const raw = await signTx({ key: devKey(0), nonce: 0 });
      await node.call('eth_sendRawTransaction', [raw]);
      expect(await node.call('evm_setIntervalMining', [100])).to.equal(true);
      const before = await head();
      tick(100);
      await until(mined(raw), 'the first interval’s block');
      expect((await node.call('eth_getTransactionReceipt', [txHash(raw)]))!.status).to.equal('0x1');
      tick(100);
      await until(async () => (await head()) === before + 2n, 'the second interval’s block');
      await node.call('evm_setIntervalMining', [0]);
    });
  });

  it('0 stops it', async () => {
    await withIntervalClock(async (tick) => {
      await node.call('evm_setIntervalMining', [100]);
      expect(await node.call('evm_setIntervalMining', [0])).to.equal(true);
      const stopped = await head();
      tick(1_000);
      await node.node.services.miner.idle();
      expect(await head()).to.equal(stopped);
    });
  });

  it('eth_sendRawTransaction in interval mode answers before the block (the receipt follows within an interval)', async () => {
    await withIntervalClock(async (tick) => {
      await node.call('evm_setIntervalMining', [300]);
      const raw = await signTx({ key: devKey(0), nonce: 1 });
      await node.call('eth_sendRawTransaction', [raw]);
      expect(await node.call('eth_getTransactionReceipt', [txHash(raw)])).to.equal(null);
      tick(300);
      await until(mined(raw), 'the interval’s block');
      expect((await node.call('eth_getTransactionReceipt', [txHash(raw)]))!.status).to.equal('0x1');
      await node.call('evm_setIntervalMining', [0]);
    });
  });

  it('refuses an interval a timer cannot hold (over 2^31 − 1 ms) with -32602', async () => {
    await expectRpcError(node.call('evm_setIntervalMining', [2 ** 31]), -32602, /interval/);
  });
});
