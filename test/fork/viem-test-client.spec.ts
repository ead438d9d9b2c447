// viem's test client forking the test remote, in its anvil and hardhat modes: reset to a fork at a
// block, impersonate a token holder, move its tokens, read the balances back; point it at the
// remote's URL again and find the transfer kept.
import { expect } from 'chai';
import { createTestClient, defineChain, http, publicActions, walletActions, type Abi } from 'viem';
import { contracts } from '../helpers/contracts.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { seedRemote, type SeededRemote } from '../helpers/fork-remote.js';

const chain = defineChain({ id: 31337, name: 'fork', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } });

for (const mode of ['anvil', 'hardhat'] as const) {
  describe(`forking with viem's test client in ${mode} mode`, () => {
    let remote: SeededRemote;
    let node: TestNode;
    before(async () => {
      remote = await seedRemote({ blocks: 2, perBlock: 4 });
      node = await startTestNode({ dataDir: undefined });
    });
    after(async () => {
      await node?.destroy();
      await remote?.node.destroy();
    });

    it('reset({ jsonRpcUrl, blockNumber }), impersonate a holder, transfer its tokens, read the balances', async () => {
      const client = createTestClient({ mode, chain, transport: http(node.url) }).extend(publicActions).extend(walletActions);
      await client.reset({ jsonRpcUrl: remote.node.url, blockNumber: remote.forkBlock });
      expect(await client.getBlockNumber()).to.equal(remote.forkBlock);
      const abi = contracts().Token.abi as unknown as Abi;
      const [holder, to] = [remote.holders[0], remote.holders[1]];
      const balance = (address: `0x${string}`) => client.readContract({ address: remote.token, abi, functionName: 'balanceOf', args: [address] }) as Promise<bigint>;
      const [before, toBefore] = [await balance(holder), await balance(to)];
      expect(before > 0n).to.equal(true);
      await client.impersonateAccount({ address: holder });
      await client.setBalance({ address: holder, value: 10n ** 18n });
      const hash = await client.writeContract({ account: holder, chain, address: remote.token, abi, functionName: 'transfer', args: [to, before] });
      expect((await client.waitForTransactionReceipt({ hash })).status).to.equal('success');
      expect(await balance(holder)).to.equal(0n);
      expect(await balance(to)).to.equal(toBefore + before);
      await client.stopImpersonatingAccount({ address: holder });
    });

    it('setRpcUrl: the fork reads on from the URL, the transfer made on it kept', async () => {
      const client = createTestClient({ mode, chain, transport: http(node.url) }).extend(publicActions);
      const abi = contracts().Token.abi as unknown as Abi;
      const holder = remote.holders[0];
      const head = await client.getBlockNumber();
      await client.setRpcUrl(remote.node.url);
      expect(await client.getBlockNumber()).to.equal(head);
      expect(await client.readContract({ address: remote.token, abi, functionName: 'balanceOf', args: [holder] })).to.equal(0n);
    });
  });
}
