// The spec of reset as anvil and Hardhat both name it (to a genesis, new genesis settings or a fork), written
// once and run under both names by test/rpc/anvil/reset.spec.ts and test/rpc/hardhat/reset.spec.ts.
import { expect } from 'chai';
import { callAs, blockAt, done, freshAddress, freshNode, headNumber, methodOf, type Dialect } from './dev-calls.js';
import { DEV_ADDRESSES, startTestNode } from './node.js';
import { devKey, expectRpcError, signTx, SINK } from './transactions.js';
import { WsRpc } from './ws-rpc.js';

export function describeReset(dialect: Dialect): void {
  const method = methodOf(dialect, 'reset');
  describe(method, () => {
    const it_ = freshNode();

    it(`goes back to the genesis block and its state, and answers ${JSON.stringify(done(dialect))}`, async () => {
      const { node } = it_;
      const genesis = await blockAt(node, '0x0');
      const balance = await node.call('eth_getBalance', [DEV_ADDRESSES[0], 'latest']);
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK, value: '0x1' }]);
      expect(await callAs(node, method, [])).to.equal(done(dialect));
      expect(await headNumber(node)).to.equal(0n);
      expect((await blockAt(node, 'latest')).hash).to.equal(genesis.hash);
      expect(await node.call('eth_getBalance', [DEV_ADDRESSES[0], 'latest'])).to.equal(balance);
      expect(await node.call('eth_getTransactionByHash', [hash])).to.equal(null);
      expect(await node.call('eth_getBlockByNumber', ['0x1', false])).to.equal(null);
    });

    it('empties the pool and forgets filters, snapshots and impersonations', async () => {
      const { node } = it_;
      await node.call('evm_setAutomine', [false]);
      await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0 })]);
      const filter = await node.call('eth_newBlockFilter', []);
      const snapshot = await node.call('evm_snapshot', []);
      await callAs(node, methodOf(dialect, 'impersonateAccount'), [freshAddress(7)]);
      await callAs(node, method, []);
      expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x0' });
      await expectRpcError(node.call('eth_getFilterChanges', [filter]), -32000, 'filter not found');
      expect(await node.call('evm_revert', [snapshot])).to.equal(false);
      await expectRpcError(node.call('eth_sendTransaction', [{ from: freshAddress(7), to: SINK }]), -32000, /unknown account/);
    });

    it('keeps the mining settings', async () => {
      const { node } = it_;
      await node.call('evm_setAutomine', [false]);
      await callAs(node, method, []);
      expect(await callAs(node, methodOf(dialect, 'getAutomine'), [])).to.equal(false);
    });

    it('builds a new dev genesis from genesis settings; a restart without flags resumes it', async () => {
      const { node } = it_;
      await callAs(node, method, [{ genesis: { chainId: '0x539', balance: '0x2a', accounts: 2 } }]);
      expect(await node.call('eth_chainId', [])).to.equal('0x539');
      expect(await node.call('eth_accounts', [])).to.have.length(2);
      expect(await node.call('eth_getBalance', [DEV_ADDRESSES[1], 'latest'])).to.equal('0x2a');
      expect(await node.call('eth_getBalance', [DEV_ADDRESSES[2], 'latest'])).to.equal('0x0');
      const genesis = await blockAt(node, '0x0');
      await node.stop();
      const again = await startTestNode({}, node.dataDir);
      try {
        expect((await blockAt(again, '0x0')).hash).to.equal(genesis.hash);
        expect(await again.call('eth_chainId', [])).to.equal('0x539');
      } finally {
        await again.destroy();
      }
    });

    it('a mnemonic that is not BIP-39: -32602 naming the word, the chain left as it was', async () => {
      const { node } = it_;
      const head = await blockAt(node, 'latest');
      await expectRpcError(
        callAs(node, method, [{ genesis: { mnemonic: 'test test test test test test test test test test test junkk' } }]),
        -32602,
        'invalid argument 0 (options.genesis.mnemonic): word 12, "junkk", is not in the BIP-39 English word list (did you mean "junk"?)',
      );
      await expectRpcError(callAs(node, method, [{ genesis: { mnemonic: '0x0' } }]), -32602, /^invalid argument 0 \(options\.genesis\.mnemonic\): word 1, "0x0", is not in the BIP-39/);
      expect((await blockAt(node, 'latest')).hash).to.equal(head.hash);
    });

    it('mines on after the reset, on the new chain', async () => {
      const { node } = it_;
      await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK, value: '0x1' }]);
      await callAs(node, method, []);
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK, value: '0x1' }]);
      expect((await node.call('eth_getTransactionReceipt', [hash]))?.blockNumber).to.equal('0x1');
    });

    it('keeps WebSocket subscriptions: they hear of the new chain’s blocks from its genesis on', async () => {
      const { node } = it_;
      await node.call('evm_mine', []);
      await node.call('evm_mine', []);
      const ws = await WsRpc.connect(node.url);
      try {
        const id = await ws.call('eth_subscribe', ['newHeads']);
        await callAs(node, method, []);
        await node.call('evm_mine', []);
        const [head] = (await ws.waitFor(id, 1)) as { number: string }[];
        expect(head.number).to.equal('0x1');
      } finally {
        await ws.close();
      }
    });

    it('accepts the forking member as viem sends it, with no URL and a null block number', async () => {
      expect(await callAs(it_.node, method, [{ forking: { blockNumber: null } }])).to.equal(done(dialect));
    });

    it('answers -32000 naming the remote when the chain to fork cannot be reached, and keeps serving its chain', async () => {
      const { node } = it_;
      await expectRpcError(callAs(node, method, [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1', blockNumber: 5 } }]), -32000, /fork's remote http:\/\/127\.0\.0\.1:1 .*cannot connect/);
      expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
    });

    it('refuses a fork block without a URL on a node that forks nothing, with -32602', async () => {
      await expectRpcError(callAs(it_.node, method, [{ forking: { blockNumber: '0x5' } }]), -32602, /forks no remote chain/);
    });

    it('refuses genesis settings no chain may have, with -32602', async () => {
      const { node } = it_;
      await expectRpcError(callAs(node, method, [{ genesis: { gasLimit: '0x1' } }]), -32602, /gasLimit/);
      await expectRpcError(callAs(node, method, [{ genesis: { chainId: '0xffffffffffffffff' } }]), -32602, /chainId/);
      await expectRpcError(callAs(node, method, [{ genesis: { hardfork: 'frontier' } }]), -32602, /hardfork/);
    });
  });
}
