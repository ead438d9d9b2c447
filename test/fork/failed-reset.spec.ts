// Forking: an anvil_reset that cannot open the fork it asks for fails naming why, and the node
// serves on the fork it had — with what its cache holds (also an in-memory one, --no-fork-cache),
// and mining as it did. A remote failing the new fork's first proofs writes nothing of it.
import { expect } from 'chai';
import type { Hex } from 'viem';
import { DEV_ADDRESSES } from '../helpers/node.js';
import { balanceOfData, forkFixture, type CountingProxy } from '../helpers/fork-remote.js';
import { expectRpcError } from '../helpers/transactions.js';

const hex = (n: bigint) => `0x${n.toString(16)}`;
const DEV_BALANCE = hex(10_000n * 10n ** 18n);

for (const [where, more] of [
  ['in memory (--no-fork-cache)', { cache: false }],
  ['in a cache dir', {}],
] as const) {
  describe(`forking: a failed anvil_reset, the fork's cache ${where}`, () => {
    const f = forkFixture({ blocks: 3, perBlock: 6 }, more);
    let next = 0;

    /**
     * Reads balances of holders the fork has not read, then fails a reset with `forking` (the
     * remote's answers edited by `edits` meanwhile): the reads after it ask the remote nothing and
     * answer the same.
     */
    async function servesOnAfter(forking: Record<string, unknown>, error: RegExp, edits: CountingProxy['edits'] = {}): Promise<void> {
      const calls = f.remote.holders.slice(next, (next += 4)).map((holder) => ({ to: f.remote.token, data: balanceOfData(holder as Hex) }));
      const head = await f.fork.call('eth_blockNumber', []);
      const before = await Promise.all(calls.map((call) => f.fork.call('eth_call', [call, 'latest'])));
      f.proxy.edits = edits;
      await expectRpcError(f.fork.call('anvil_reset', [{ forking }]), -32000, error);
      f.proxy.edits = {};
      // A failed fork's requests sent before it failed may still be on their way.
      await f.proxy.quiet();
      f.proxy.reset();
      expect(await f.fork.call('eth_blockNumber', [])).to.equal(head);
      expect(await Promise.all(calls.map((call) => f.fork.call('eth_call', [call, 'latest'])))).to.deep.equal(before);
      expect(f.proxy.reset().total).to.equal(0);
    }

    it('to a block the remote lacks: answers -32000 naming it, and serves on from its cache', async () => {
      await servesOnAfter({ jsonRpcUrl: f.proxy.url, blockNumber: Number(f.remote.forkBlock) + 1_000 }, /has no block/);
    });

    it('to a remote nothing serves: answers -32000 naming it, and serves on from its cache', async () => {
      await servesOnAfter({ jsonRpcUrl: 'http://127.0.0.1:1', blockNumber: 1 }, /http:\/\/127\.0\.0\.1:1 .*cannot connect/);
    });

    it('whose remote fails the new fork’s first proofs: writes nothing of it, and the old fork serves on, its dev accounts funded', async () => {
      await servesOnAfter({ jsonRpcUrl: f.proxy.url, blockNumber: Number(f.remote.forkBlock) - 1 }, /no proof/, { eth_getProof: async () => ({ no: 'proof' }) });
      expect(await f.fork.call('eth_getBalance', [DEV_ADDRESSES[2], 'latest'])).to.equal(DEV_BALANCE);
    });

    it('mines a sent transaction as before (automine stays on)', async () => {
      await expectRpcError(f.fork.call('anvil_reset', [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1', blockNumber: 1 } }]), -32000, /cannot connect/);
      expect(await f.fork.call('anvil_getAutomine', [])).to.equal(true);
      const hash = await f.fork.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: DEV_ADDRESSES[0], value: '0x1' }]);
      expect((await f.fork.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x1');
    });

    it('is followed by a reset to the fork block that asks the remote nothing it asked before', async () => {
      const call = { to: f.remote.token, data: balanceOfData(f.remote.holders[next++] as Hex) };
      const before = await f.fork.call('eth_call', [call, 'latest']);
      await expectRpcError(f.fork.call('anvil_reset', [{ forking: { jsonRpcUrl: f.proxy.url, blockNumber: Number(f.remote.forkBlock) + 1_000 } }]), -32000, /has no block/);
      f.proxy.reset();
      await f.fork.call('anvil_reset', [{ forking: { jsonRpcUrl: f.proxy.url, blockNumber: Number(f.remote.forkBlock) } }]);
      expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(before);
      expect(f.proxy.reset().total).to.equal(0);
    });
  });
}
