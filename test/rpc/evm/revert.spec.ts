import { expect } from 'chai';
import { blockAt, headNumber, hex } from '../../helpers/dev-calls.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, signTx, SINK } from '../../helpers/transactions.js';
import { WsRpc } from '../../helpers/ws-rpc.js';

describe('evm_revert', () => {
  let node: TestNode;
  afterEach(() => node.destroy());

  describe('on an automining node', () => {
    beforeEach(async () => {
      node = await startTestNode();
    });

    it('takes the chain back to the snapshot’s head: later blocks, receipts and transactions are gone', async () => {
      const head = await blockAt(node, 'latest');
      const id = await node.call('evm_snapshot', []);
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK, value: '0x1' }]);
      const mined = (await node.call('eth_getTransactionReceipt', [hash]))!;
      expect(await node.call('evm_revert', [id])).to.equal(true);
      expect(await blockAt(node, 'latest')).to.deep.equal(head);
      expect(await node.call('eth_getTransactionReceipt', [hash])).to.equal(null);
      expect(await node.call('eth_getTransactionByHash', [hash])).to.equal(null);
      expect(await node.call('eth_getBlockByHash', [mined.blockHash, false])).to.equal(null);
      expect(await node.call('eth_getBlockByNumber', [mined.blockNumber, false])).to.equal(null);
    });

    it('puts the state back: balances, nonces, code and storage edits', async () => {
      const balance = await node.call('eth_getBalance', [DEV_ADDRESSES[0], 'latest']);
      const id = await node.call('evm_snapshot', []);
      await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK, value: '0x1' }]);
      await node.call('anvil_setCode', [SINK, '0x00']);
      await node.call('anvil_setStorageAt', [SINK, '0x0', '0x1']);
      await node.call('evm_revert', [id]);
      expect(await node.call('eth_getBalance', [DEV_ADDRESSES[0], 'latest'])).to.equal(balance);
      expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'latest'])).to.equal('0x0');
      expect(await node.call('eth_getCode', [SINK, 'latest'])).to.equal('0x');
      expect(BigInt(await node.call('eth_getStorageAt', [SINK, '0x0', 'latest']))).to.equal(0n);
    });

    it('goes back to state edits made before the snapshot, on the same block', async () => {
      await node.call('anvil_setBalance', [SINK, '0x5']);
      const id = await node.call('evm_snapshot', []);
      await node.call('anvil_setBalance', [SINK, '0x6']);
      await node.call('evm_revert', [id]);
      expect(await node.call('eth_getBalance', [SINK, 'latest'])).to.equal('0x5');
    });

    it('uses a snapshot up, and every later one with it; earlier ones stay', async () => {
      const first = await node.call('evm_snapshot', []);
      await node.call('evm_mine', []);
      const second = await node.call('evm_snapshot', []);
      await node.call('evm_mine', []);
      const third = await node.call('evm_snapshot', []);
      expect(await node.call('evm_revert', [second])).to.equal(true);
      expect(await node.call('evm_revert', [second])).to.equal(false);
      expect(await node.call('evm_revert', [third])).to.equal(false);
      expect(await node.call('evm_revert', [first])).to.equal(true);
      expect(await headNumber(node)).to.equal(0n);
    });

    it('answers false for an id no snapshot has, and changes nothing', async () => {
      await node.call('evm_mine', []);
      expect(await node.call('evm_revert', ['0x2a'])).to.equal(false);
      expect(await headNumber(node)).to.equal(1n);
    });

    it('puts the clock back: the next block’s timestamp follows the snapshot’s time, not the time moved since', async () => {
      const id = await node.call('evm_snapshot', []);
      await node.call('evm_increaseTime', [3600]);
      await node.call('evm_mine', []);
      const ahead = BigInt((await blockAt(node, 'latest')).timestamp);
      await node.call('evm_revert', [id]);
      await node.call('evm_mine', []);
      expect(BigInt((await blockAt(node, 'latest')).timestamp) < ahead - 3000n).to.equal(true);
    });

    it('puts the next-block settings back: gas limit, coinbase and base fee', async () => {
      const id = await node.call('evm_snapshot', []);
      await node.call('evm_setBlockGasLimit', ['0x2faf080']);
      await node.call('anvil_setCoinbase', [SINK]);
      await node.call('evm_revert', [id]);
      await node.call('evm_mine', []);
      const block = await blockAt(node, 'latest');
      expect(block.gasLimit).to.equal('0x1c9c380');
      expect(block.miner).to.equal(`0x${'00'.repeat(20)}`);
    });

    it('leaves unpolled filters only the blocks that stayed: a block mined and reverted before a poll is never reported', async () => {
      const filter = await node.call('eth_newBlockFilter', []);
      const id = await node.call('evm_snapshot', []);
      await node.call('evm_mine', []);
      await node.call('evm_revert', [id]);
      expect(await node.call('eth_getFilterChanges', [filter])).to.deep.equal([]);
    });

    it('makes polled filters report the blocks mined after the revert, at the numbers the reverted ones had', async () => {
      const filter = await node.call('eth_newBlockFilter', []);
      const id = await node.call('evm_snapshot', []);
      await node.call('evm_mine', []);
      const gone = (await blockAt(node, 'latest')).hash;
      expect(await node.call('eth_getFilterChanges', [filter])).to.deep.equal([gone]);
      await node.call('evm_revert', [id]);
      await node.call('evm_mine', [hex(BigInt((await blockAt(node, 'latest')).timestamp) + 100n)]);
      const fresh = (await blockAt(node, 'latest')).hash;
      expect(fresh).to.not.equal(gone);
      expect(await node.call('eth_getFilterChanges', [filter])).to.deep.equal([fresh]);
      expect(await node.call('eth_getFilterChanges', [filter])).to.deep.equal([]);
    });

    it('makes newHeads subscriptions announce the blocks mined after the revert, at the numbers the reverted ones had', async () => {
      const ws = await WsRpc.connect(node.url);
      try {
        const subscription = await ws.call('eth_subscribe', ['newHeads']);
        const id = await node.call('evm_snapshot', []);
        await node.call('evm_mine', []);
        await node.call('evm_revert', [id]);
        await node.call('evm_mine', [hex(BigInt((await blockAt(node, 'latest')).timestamp) + 100n)]);
        const heads = (await ws.waitFor(subscription, 2)) as { number: string; hash: string }[];
        expect(heads.map((h) => h.number)).to.deep.equal(['0x1', '0x1']);
        expect(heads[1].hash).to.equal((await blockAt(node, 'latest')).hash);
      } finally {
        await ws.close();
      }
    });

    it('keeps the rewound chain across a restart', async () => {
      const id = await node.call('evm_snapshot', []);
      await node.call('evm_mine', []);
      await node.call('evm_revert', [id]);
      await node.stop();
      node = await startTestNode({}, node.dataDir);
      expect(await headNumber(node)).to.equal(0n);
      await node.call('evm_mine', []);
      expect(await headNumber(node)).to.equal(1n);
    });

    it('runs the Hardhat fixture loop: snapshot, send, receipt, revert — each round from the same state', async () => {
      const balance = await node.call('eth_getBalance', [DEV_ADDRESSES[1], 'latest']);
      for (let round = 0; round < 10; round++) {
        const id = await node.call('evm_snapshot', []);
        const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: SINK, value: '0x1' }]);
        expect((await node.call('eth_getTransactionReceipt', [hash]))?.blockNumber).to.equal('0x1');
        expect(await node.call('evm_revert', [id])).to.equal(true);
        expect(await node.call('eth_getBalance', [DEV_ADDRESSES[1], 'latest'])).to.equal(balance);
      }
    });
  });

  describe('with mining off', () => {
    beforeEach(async () => {
      node = await startTestNode({ mining: false });
    });

    it('puts the pool back: transactions sent after the snapshot leave it, those before stay', async () => {
      const kept = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0 })]);
      const id = await node.call('evm_snapshot', []);
      const gone = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(2), nonce: 0 })]);
      await node.call('evm_revert', [id]);
      expect(await node.call('eth_getTransactionByHash', [kept])).to.include({ blockNumber: null });
      expect(await node.call('eth_getTransactionByHash', [gone])).to.equal(null);
    });

    it('puts back transactions a block took from the pool after the snapshot', async () => {
      const hash = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(3), nonce: 0 })]);
      const id = await node.call('evm_snapshot', []);
      await node.call('evm_mine', []);
      expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x0' });
      await node.call('evm_revert', [id]);
      expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x1', queued: '0x0' });
      await node.call('evm_mine', []);
      expect((await node.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x1');
    });

    it('puts the pool’s journal back too: a restart after the revert finds the snapshot’s pool', async () => {
      const kept = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(4), nonce: 0 })]);
      const id = await node.call('evm_snapshot', []);
      await node.call('evm_mine', []);
      const gone = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(5), nonce: 0 })]);
      await node.call('evm_revert', [id]);
      await node.stop();
      node = await startTestNode({ mining: false }, node.dataDir);
      expect(await node.call('eth_getTransactionByHash', [kept])).to.include({ blockNumber: null });
      expect(await node.call('eth_getTransactionByHash', [gone])).to.equal(null);
    });
  });
});
