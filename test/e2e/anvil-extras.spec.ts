// anvil's extras as a user of viem's test client (anvil mode) and of ethers calls them: the methods viem has no
// action for go through its typed request, and ethers' getSigner takes an impersonated address, as on anvil.
import { expect } from 'chai';
import { JsonRpcProvider } from 'ethers';
import { createTestClient, defineChain, http, publicActions, walletActions, type Abi } from 'viem';
import { contracts, deployContract } from '../helpers/contracts.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';

const devChain = defineChain({
  id: 31337,
  name: 'evm-node dev',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});
const WHALE = '0x00000000000000000000000000000000000000aa' as const;

describe("anvil's extras through viem's test client (anvil mode) and ethers", () => {
  let node: TestNode;
  const client = () => createTestClient({ mode: 'anvil', chain: devChain, transport: http(node.url) }).extend(publicActions).extend(walletActions);
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('anvil_addBalance, anvil_increaseTime, evm_setTime, eth_coinbase, web3_sha3', async () => {
    const c = client();
    await c.request({ method: 'anvil_addBalance' as never, params: [WHALE, '0x64'] as never });
    await c.request({ method: 'anvil_addBalance' as never, params: [WHALE, '0x64'] as never });
    expect(await c.getBalance({ address: WHALE })).to.equal(200n);
    expect(await c.request({ method: 'anvil_increaseTime' as never, params: [60] as never })).to.equal(60);
    expect(await c.request({ method: 'eth_coinbase' as never })).to.equal('0x0000000000000000000000000000000000000000');
    expect(await c.request({ method: 'web3_sha3' as never, params: ['0x'] as never })).to.equal('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    await c.request({ method: 'evm_setTime' as never, params: [4_102_444_800] as never });
    await c.mine({ blocks: 1 });
    expect(Number((await c.getBlock()).timestamp)).to.be.at.least(4_102_444_800);
  });

  it('anvil_setAutomine, anvil_snapshot and anvil_revert beside the evm_ names viem sends', async () => {
    const c = client();
    await c.request({ method: 'anvil_setAutomine' as never, params: [false] as never });
    expect(await c.getAutomine()).to.equal(false);
    const id = await c.request({ method: 'anvil_snapshot' as never });
    await c.mine({ blocks: 2 });
    expect(await c.request({ method: 'anvil_revert' as never, params: [id] as never })).to.equal(true);
    expect(await c.getBlockNumber()).to.equal(0n);
  });

  it('anvil_dealERC20 gives a holder tokens that viem reads back', async () => {
    const c = client();
    const token = await deployContract(node, 'Token', ['Test', 'TST', 1000n]);
    await c.request({ method: 'anvil_dealERC20' as never, params: [WHALE, token, '0x2a'] as never });
    expect(await c.readContract({ address: token, abi: contracts().Token.abi as unknown as Abi, functionName: 'balanceOf', args: [WHALE] })).to.equal(42n);
  });

  it('anvil_setChainId: viem sends on the new chain', async () => {
    await client().request({ method: 'anvil_setChainId' as never, params: [1337] as never });
    const other = defineChain({ ...devChain, id: 1337 });
    const c = createTestClient({ mode: 'anvil', chain: other, transport: http(node.url) }).extend(publicActions).extend(walletActions);
    expect(await c.getChainId()).to.equal(1337);
    const hash = await c.sendTransaction({ account: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: 1n });
    expect((await c.waitForTransactionReceipt({ hash })).status).to.equal('success');
  });

  it("ethers' getSigner takes an impersonated address and sends from it, as on anvil", async () => {
    await client().impersonateAccount({ address: WHALE });
    await client().setBalance({ address: WHALE, value: 10n ** 18n });
    const provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    try {
      const signer = await provider.getSigner(WHALE);
      expect((await signer.getAddress()).toLowerCase()).to.equal(WHALE);
      const sent = await signer.sendTransaction({ to: DEV_ADDRESSES[1], value: 1n });
      const receipt = await sent.wait();
      expect(receipt?.from.toLowerCase()).to.equal(WHALE);
      expect(receipt?.status).to.equal(1);
    } finally {
      provider.destroy();
    }
  });
});
