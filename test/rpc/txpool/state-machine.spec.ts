// The pool as a state machine, driven and observed over JSON-RPC with manual mining, so
// transactions stay in the pool until evm_mine. After every step all txpool views must agree
// (poolModel checks that) and show the expected categories.
import { expect } from 'chai';
import { privateKeyToAccount } from 'viem/accounts';
import { poolModel } from '../../helpers/pool-views.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devAddress, devKey, expectRpcError, GWEI, signTx, txHash } from '../../helpers/transactions.js';

describe('txpool: the pool as a state machine', () => {
  describe('gaps, fills, replacement, mining and stale removal', () => {
    let node: TestNode;
    before(async () => {
      node = await startTestNode({ mining: false });
    });
    after(() => node.destroy());

    const A = devAddress(0);
    const B = devAddress(1);
    const D = devAddress(3);
    const send = async (raw: `0x${string}`) => node.call('eth_sendRawTransaction', [raw]);
    const hashes: Record<string, string> = {};

    it('starts empty', async () => {
      expect(await poolModel(node)).to.deep.equal({});
    });

    it('a nonce gap: the transaction is queued', async () => {
      hashes.a1 = await send(await signTx({ key: devKey(0), nonce: 1 }));
      expect(await poolModel(node)).to.deep.equal({ [A]: { pending: [], queued: [1] } });
    });

    it('a second transaction beyond the gap is queued too', async () => {
      hashes.a2 = await send(await signTx({ key: devKey(0), nonce: 2 }));
      expect(await poolModel(node)).to.deep.equal({ [A]: { pending: [], queued: [1, 2] } });
    });

    it('filling the gap makes the whole run pending', async () => {
      hashes.a0 = await send(await signTx({ key: devKey(0), nonce: 0 }));
      expect(await poolModel(node)).to.deep.equal({ [A]: { pending: [0, 1, 2], queued: [] } });
    });

    it('another sender: its run is pending, what lies beyond its gap is queued', async () => {
      hashes.b0 = await send(await signTx({ key: devKey(1), nonce: 0 }));
      hashes.b2 = await send(await signTx({ key: devKey(1), nonce: 2 }));
      expect(await poolModel(node)).to.deep.equal({ [A]: { pending: [0, 1, 2], queued: [] }, [B]: { pending: [0], queued: [2] } });
    });

    it('a replacement without 10% more on both fee fields is refused and changes nothing', async () => {
      const before = await poolModel(node);
      await expectRpcError(send(await signTx({ key: devKey(0), nonce: 1, maxFeePerGas: 10n * GWEI + 1n, maxPriorityFeePerGas: GWEI + 1n })), -32000, 'replacement transaction underpriced');
      await expectRpcError(send(await signTx({ key: devKey(0), nonce: 1, maxFeePerGas: 11n * GWEI, maxPriorityFeePerGas: GWEI })), -32000, 'replacement transaction underpriced');
      expect(await poolModel(node)).to.deep.equal(before);
      expect((await node.call('txpool_contentFrom', [A])).pending['1'].hash).to.equal(hashes.a1);
    });

    it('a replacement with 10% more on both fee fields takes the old one’s place', async () => {
      const before = await poolModel(node);
      const raw = await signTx({ key: devKey(0), nonce: 1, maxFeePerGas: 11n * GWEI, maxPriorityFeePerGas: (11n * GWEI) / 10n });
      const replaced = hashes.a1;
      hashes.a1 = await send(raw);
      expect(hashes.a1).to.equal(txHash(raw));
      expect(await poolModel(node)).to.deep.equal(before);
      expect((await node.call('txpool_contentFrom', [A])).pending['1'].hash).to.equal(hashes.a1);
      expect(await node.call('eth_getTransactionByHash', [replaced])).to.equal(null);
    });

    it('a queued transaction can be replaced too, and stays queued', async () => {
      const replaced = hashes.b2;
      hashes.b2 = await send(await signTx({ key: devKey(1), nonce: 2, maxFeePerGas: 12n * GWEI, maxPriorityFeePerGas: 2n * GWEI }));
      expect((await poolModel(node))[B]).to.deep.equal({ pending: [0], queued: [2] });
      expect(await node.call('eth_getTransactionByHash', [replaced])).to.equal(null);
    });

    it('evm_mine: pending transactions leave the pool for the block; the queued one stays queued', async () => {
      await node.call('evm_mine', []);
      const block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
      expect([...(block.transactions as string[])].sort()).to.deep.equal([hashes.a0, hashes.a1, hashes.a2, hashes.b0].sort());
      expect(await poolModel(node)).to.deep.equal({ [B]: { pending: [], queued: [2] } });
      for (const key of ['a0', 'a1', 'a2', 'b0']) {
        const tx = (await node.call('eth_getTransactionByHash', [hashes[key]]))!;
        expect(tx.blockHash, key).to.equal(block.hash);
      }
    });

    it('filling the gap after mining promotes the queued transaction', async () => {
      hashes.b1 = await send(await signTx({ key: devKey(1), nonce: 1 }));
      expect(await poolModel(node)).to.deep.equal({ [B]: { pending: [1, 2], queued: [] } });
      await node.call('evm_mine', []);
      expect(await poolModel(node)).to.deep.equal({});
    });

    it('a transaction made stale by a mined one (here: a 7702 authorization bumping its sender’s nonce) is dropped', async () => {
      // D holds nonces 1 and 2 in the pool, behind a gap at 0. A set-code transaction from A carries
      // two authorizations signed by D (nonces 0 and 1): once mined, D's nonce is 2.
      const authority = privateKeyToAccount(devKey(3));
      hashes.d1 = await send(await signTx({ key: devKey(3), nonce: 1 }));
      hashes.d2 = await send(await signTx({ key: devKey(3), nonce: 2 }));
      expect(await poolModel(node)).to.deep.equal({ [D]: { pending: [], queued: [1, 2] } });
      const delegate = devAddress(9);
      const authorizationList = [
        await authority.signAuthorization({ chainId: 31337, address: delegate, nonce: 0 }),
        await authority.signAuthorization({ chainId: 31337, address: delegate, nonce: 1 }),
      ];
      const nonce = Number(BigInt(await node.call('eth_getTransactionCount', [A, 'pending'])));
      hashes.set = await send(await signTx({ key: devKey(0), kind: 'eip7702', nonce, to: D, gas: 100_000n, authorizationList }));
      await node.call('evm_mine', []);
      expect((await node.call('eth_getTransactionReceipt', [hashes.set]))!.status).to.equal('0x1');
      expect(await node.call('eth_getTransactionCount', [D, 'latest'])).to.equal('0x2');
      // d1 is stale and gone; d2 now continues the account's nonce and is pending.
      expect(await poolModel(node)).to.deep.equal({ [D]: { pending: [2], queued: [] } });
      expect(await node.call('eth_getTransactionByHash', [hashes.d1])).to.equal(null);
      await node.call('evm_mine', []);
      expect((await node.call('eth_getTransactionReceipt', [hashes.d2]))!.status).to.equal('0x1');
      expect(await poolModel(node)).to.deep.equal({});
    });

    it('a sender whose own set-code transaction bumps its nonce twice loses its next pooled transaction as stale', async () => {
      // E authorizes itself (nonce 1, as the sender's nonce is bumped first), so after E:0 its nonce is 2 and E:1 is stale.
      const e = privateKeyToAccount(devKey(4));
      const E = devAddress(4);
      const authorization = await e.signAuthorization({ chainId: 31337, address: devAddress(9), nonce: 1 });
      const first = await send(await signTx({ key: devKey(4), kind: 'eip7702', nonce: 0, to: E, gas: 100_000n, authorizationList: [authorization] }));
      const second = await send(await signTx({ key: devKey(4), nonce: 1 }));
      expect(await poolModel(node)).to.deep.equal({ [E]: { pending: [0, 1], queued: [] } });
      await node.call('evm_mine', []);
      expect((await node.call('eth_getTransactionReceipt', [first]))!.status).to.equal('0x1');
      expect(await node.call('eth_getTransactionCount', [E, 'latest'])).to.equal('0x2');
      expect(await node.call('eth_getTransactionReceipt', [second])).to.equal(null);
      expect(await node.call('eth_getTransactionByHash', [second])).to.equal(null);
      expect(await poolModel(node)).to.deep.equal({});
    });
  });

  describe('a full pool (txpoolLimit 3)', () => {
    let node: TestNode;
    before(async () => {
      node = await startTestNode({ mining: false, txpoolLimit: 3 });
    });
    after(() => node.destroy());

    const A = devAddress(0);
    const B = devAddress(1);
    const C = devAddress(2);
    const send = async (raw: `0x${string}`) => node.call('eth_sendRawTransaction', [raw]);

    it('fills up to txCountLimit', async () => {
      await send(await signTx({ key: devKey(0), nonce: 0 }));
      await send(await signTx({ key: devKey(0), nonce: 1 }));
      await send(await signTx({ key: devKey(1), nonce: 0 }));
      expect(await poolModel(node, 3)).to.deep.equal({ [A]: { pending: [0, 1], queued: [] }, [B]: { pending: [0], queued: [] } });
    });

    it('refuses a newcomer that pays no more than the cheapest: "txpool is full"', async () => {
      const before = await poolModel(node, 3);
      await expectRpcError(send(await signTx({ key: devKey(2), nonce: 0 })), -32000, 'txpool is full');
      expect(await poolModel(node, 3)).to.deep.equal(before);
    });

    it('still accepts a replacement, which needs no room', async () => {
      const before = await poolModel(node, 3);
      await send(await signTx({ key: devKey(1), nonce: 0, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 2n * GWEI }));
      expect(await poolModel(node, 3)).to.deep.equal(before);
    });

    it('a newcomer paying more evicts the cheapest sender’s highest nonce', async () => {
      const hash = await send(await signTx({ key: devKey(2), nonce: 0, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 3n * GWEI }));
      // A's transactions tip 1 gwei, B's now 2: A's highest nonce goes.
      expect(await poolModel(node, 3)).to.deep.equal({ [A]: { pending: [0], queued: [] }, [B]: { pending: [0], queued: [] }, [C]: { pending: [0], queued: [] } });
      expect((await node.call('eth_getTransactionByHash', [hash]))!.hash).to.equal(hash);
    });

    it('mining makes room again', async () => {
      await node.call('evm_mine', []);
      expect(await poolModel(node, 3)).to.deep.equal({});
      await send(await signTx({ key: devKey(0), nonce: 1 }));
      expect(await poolModel(node, 3)).to.deep.equal({ [A]: { pending: [1], queued: [] } });
    });
  });
});
