// The specs of impersonation as anvil and Hardhat both name it (impersonateAccount, stopImpersonatingAccount),
// written once and run under both names by test/rpc/anvil/*.spec.ts and test/rpc/hardhat/*.spec.ts.
import { expect } from 'chai';
import { callAs, done, freshAddress, freshNode, hex, methodOf, type Dialect } from './dev-calls.js';
import { DEV_ADDRESSES } from './node.js';
import { expectRpcError, SINK } from './transactions.js';

export function describeImpersonateAccount(dialect: Dialect): void {
  const method = methodOf(dialect, 'impersonateAccount');
  describe(method, () => {
    const it_ = freshNode();
    const sender = freshAddress(0xbeef);

    it(`answers ${JSON.stringify(done(dialect))}; eth_sendTransaction from the address then works without its key`, async () => {
      const { node } = it_;
      await callAs(node, methodOf(dialect, 'setBalance'), [sender, hex(10n ** 18n)]);
      expect(await callAs(node, method, [sender])).to.equal(done(dialect));
      const hash = await node.call('eth_sendTransaction', [{ from: sender, to: SINK, value: '0x5' }]);
      const receipt = await node.call('eth_getTransactionReceipt', [hash]);
      expect(receipt).to.include({ status: '0x1', from: sender });
      expect((await node.call('eth_getTransactionByHash', [hash]))?.from).to.equal(sender);
      expect(await node.call('eth_getTransactionCount', [sender, 'latest'])).to.equal('0x1');
    });

    it('makes the block commit to the sender: the placeholder signature carries the address', async () => {
      const { node } = it_;
      await callAs(node, methodOf(dialect, 'setBalance'), [sender, hex(10n ** 18n)]);
      await callAs(node, method, [sender]);
      const hash = await node.call('eth_sendTransaction', [{ from: sender, to: SINK }]);
      const tx = (await node.call('eth_getTransactionByHash', [hash]))!;
      expect(BigInt(tx.r)).to.equal((1n << 160n) + BigInt(sender));
      expect(tx.s).to.equal('0x1');
    });

    it('shows the sender in the pool and in the pending block, before a block takes it', async () => {
      const { node } = it_;
      await node.call('evm_setAutomine', [false]);
      await callAs(node, methodOf(dialect, 'setBalance'), [sender, hex(10n ** 18n)]);
      await callAs(node, method, [sender]);
      const hash = await node.call('eth_sendTransaction', [{ from: sender, to: SINK }]);
      expect((await node.call('eth_getTransactionByHash', [hash]))?.from).to.equal(sender);
      const pending = (await node.call('eth_getBlockByNumber', ['pending', true]))!;
      expect((pending.transactions as { hash: string; from: string }[]).map((tx) => [tx.hash, tx.from])).to.deep.equal([[hash, sender]]);
      expect(Object.keys((await node.call('txpool_content', [])).pending).map((a) => a.toLowerCase())).to.deep.equal([sender]);
    });

    it('refuses eth_sendTransaction from an address not impersonated, with -32000 unknown account', async () => {
      await expectRpcError(it_.node.call('eth_sendTransaction', [{ from: freshAddress(0xcafe), to: SINK }]), -32000, /unknown account/);
    });

    it('still signs with the key of a node account', async () => {
      const { node } = it_;
      await callAs(node, method, [DEV_ADDRESSES[1]]);
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: SINK }]);
      expect(BigInt((await node.call('eth_getTransactionByHash', [hash]))!.s)).to.not.equal(1n);
    });
  });
}

export function describeStopImpersonatingAccount(dialect: Dialect): void {
  const method = methodOf(dialect, 'stopImpersonatingAccount');
  describe(method, () => {
    const it_ = freshNode();
    const sender = freshAddress(0xbeef);

    it('ends the impersonation: eth_sendTransaction from the address is refused again', async () => {
      const { node } = it_;
      await callAs(node, methodOf(dialect, 'setBalance'), [sender, hex(10n ** 18n)]);
      await callAs(node, methodOf(dialect, 'impersonateAccount'), [sender]);
      await node.call('eth_sendTransaction', [{ from: sender, to: SINK }]);
      expect(await callAs(node, method, [sender])).to.equal(dialect === 'anvil' ? null : true);
      await expectRpcError(node.call('eth_sendTransaction', [{ from: sender, to: SINK }]), -32000, /unknown account/);
    });

    it(`answers ${dialect === 'anvil' ? 'null' : 'false'} for an address that was not impersonated`, async () => {
      expect(await callAs(it_.node, method, [sender])).to.equal(dialect === 'anvil' ? null : false);
    });
  });
}
