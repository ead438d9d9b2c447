// viem's test client, in its anvil and hardhat modes: every test action it has, against this node
// (setRpcUrl and reset with a fork are in test/fork/viem-test-client.spec.ts);
// setMinGasPrice is refused on an EIP-1559 chain, as anvil and Hardhat refuse it, and works on one without.
import { expect } from 'chai';
import { createTestClient, defineChain, http, publicActions, walletActions } from 'viem';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { devKey, signTx, SINK } from '../helpers/transactions.js';

const devChain = defineChain({
  id: 31337,
  name: 'evm-node dev',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});

const OTHER = '0x000000000000000000000000000000000000bEEF' as const;
/** Runtime code that returns the word 0x2a. */
const RETURNS_42 = '0x602a60005260206000f3' as const;

/** viem wraps the node's error; the node's own code and message are on the cause chain. */
function rpcCause(error: unknown): { code?: number; message: string } {
  let current = error as { code?: number; message: string; cause?: unknown } | undefined;
  while (current !== undefined) {
    if (typeof current.code === 'number' && current.code !== 0) return current;
    current = current.cause as typeof current;
  }
  return { message: String(error) };
}

async function refused(action: Promise<unknown>): Promise<{ code?: number; message: string }> {
  try {
    await action;
  } catch (error) {
    return rpcCause(error);
  }
  expect.fail('expected the node to refuse the action');
}

for (const mode of ['anvil', 'hardhat'] as const) {
  describe(`viem test client in ${mode} mode`, () => {
    let node: TestNode;
    const client = () => createTestClient({ mode, chain: devChain, transport: http(node.url) }).extend(publicActions).extend(walletActions);
    beforeEach(async () => {
      node = await startTestNode();
    });
    afterEach(() => node.destroy());

    it('mine: blocks, with an interval between them', async () => {
      const c = client();
      await c.mine({ blocks: 3, interval: 10 });
      expect(await c.getBlockNumber()).to.equal(3n);
      const [two, three] = await Promise.all([c.getBlock({ blockNumber: 2n }), c.getBlock({ blockNumber: 3n })]);
      expect(three.timestamp - two.timestamp).to.equal(10n);
    });

    it('setBalance, setCode, setNonce, setStorageAt: the state reads answer them', async () => {
      const c = client();
      await c.setBalance({ address: OTHER, value: 123n });
      await c.setCode({ address: OTHER, bytecode: RETURNS_42 });
      await c.setNonce({ address: OTHER, nonce: 7 });
      await c.setStorageAt({ address: OTHER, index: 2, value: `0x${'00'.repeat(31)}05` });
      expect(await c.getBalance({ address: OTHER })).to.equal(123n);
      expect(await c.getCode({ address: OTHER })).to.equal(RETURNS_42);
      expect(await c.getTransactionCount({ address: OTHER })).to.equal(7);
      expect(await c.getStorageAt({ address: OTHER, slot: '0x2' })).to.equal(`0x${'00'.repeat(31)}05`);
    });

    it('snapshot and revert', async () => {
      const c = client();
      const id = await c.snapshot();
      await c.mine({ blocks: 2 });
      await c.revert({ id });
      expect(await c.getBlockNumber()).to.equal(0n);
    });

    it('impersonateAccount, sendTransaction from it, stopImpersonatingAccount', async () => {
      const c = client();
      await c.setBalance({ address: OTHER, value: 10n ** 18n });
      await c.impersonateAccount({ address: OTHER });
      const hash = await c.sendTransaction({ account: OTHER, to: SINK, value: 1n, chain: devChain });
      expect((await c.waitForTransactionReceipt({ hash })).from).to.equal(OTHER.toLowerCase());
      await c.stopImpersonatingAccount({ address: OTHER });
      expect((await refused(c.sendTransaction({ account: OTHER, to: SINK, value: 1n, chain: devChain }))).message).to.match(/unknown account/);
    });

    it('sendUnsignedTransaction', async () => {
      const c = client();
      await c.setBalance({ address: OTHER, value: 10n ** 18n });
      const hash = await c.sendUnsignedTransaction({ from: OTHER, to: SINK, value: 2n });
      expect((await c.waitForTransactionReceipt({ hash })).status).to.equal('success');
    });

    it('setAutomine, getAutomine, dropTransaction, getTxpoolStatus, getTxpoolContent, inspectTxpool', async () => {
      const c = client();
      await c.setAutomine(false);
      expect(await c.getAutomine()).to.equal(false);
      const hash = await c.sendRawTransaction({ serializedTransaction: await signTx({ key: devKey(1), nonce: 0 }) });
      expect(await c.getTxpoolStatus()).to.deep.equal({ pending: 1, queued: 0 });
      expect(Object.keys((await c.getTxpoolContent()).pending)).to.have.length(1);
      expect(Object.keys((await c.inspectTxpool()).pending)).to.have.length(1);
      await c.dropTransaction({ hash });
      expect(await c.getTxpoolStatus()).to.deep.equal({ pending: 0, queued: 0 });
      await c.setAutomine(true);
      expect(await c.getAutomine()).to.equal(true);
    });

    it('setIntervalMining: blocks come on their own', async () => {
      const c = client();
      // evm_setIntervalMining takes milliseconds, as in Hardhat; viem sends seconds in anvil mode (see the README).
      await c.setIntervalMining({ interval: mode === 'anvil' ? 200 : 1 });
      const deadline = Date.now() + 10_000;
      while ((await c.getBlockNumber()) === 0n && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await c.setIntervalMining({ interval: 0 });
      expect((await c.getBlockNumber()) > 0n).to.equal(true);
    });

    it('increaseTime and setNextBlockTimestamp', async () => {
      const c = client();
      const wanted = BigInt(Math.floor(Date.now() / 1000)) + 86_400n;
      await c.setNextBlockTimestamp({ timestamp: wanted });
      await c.mine({ blocks: 1 });
      expect((await c.getBlock()).timestamp).to.equal(wanted);
      await c.increaseTime({ seconds: 86_400 });
      await c.mine({ blocks: 1 });
      expect((await c.getBlock()).timestamp >= wanted + 86_400n).to.equal(true);
    });

    it('setBlockTimestampInterval and removeBlockTimestampInterval', async () => {
      const c = client();
      await c.setBlockTimestampInterval({ interval: 5 });
      await c.mine({ blocks: 1 });
      await c.mine({ blocks: 1 });
      const [one, two] = await Promise.all([c.getBlock({ blockNumber: 1n }), c.getBlock({ blockNumber: 2n })]);
      expect(two.timestamp - one.timestamp).to.equal(5n);
      await c.removeBlockTimestampInterval();
    });

    it('setBlockGasLimit, setNextBlockBaseFeePerGas, setCoinbase: the next block carries them', async () => {
      const c = client();
      await c.setBlockGasLimit({ gasLimit: 50_000_000n });
      await c.setNextBlockBaseFeePerGas({ baseFeePerGas: 2_000_000_000n });
      await c.setCoinbase({ address: OTHER });
      await c.mine({ blocks: 1 });
      const block = await c.getBlock();
      expect(block.gasLimit).to.equal(50_000_000n);
      expect(block.baseFeePerGas).to.equal(2_000_000_000n);
      expect(block.miner).to.equal(OTHER.toLowerCase());
    });

    it('setLoggingEnabled', async () => {
      await client().setLoggingEnabled(false);
      await client().setLoggingEnabled(true);
    });

    it('reset: back to genesis', async () => {
      const c = client();
      await c.mine({ blocks: 2 });
      await c.reset();
      expect(await c.getBlockNumber()).to.equal(0n);
    });

    it('setMinGasPrice: refused on an EIP-1559 chain, as anvil and Hardhat refuse it', async () => {
      const error = await refused(client().setMinGasPrice({ gasPrice: 1n }));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.match(/not supported when EIP-1559 is active/);
    });

    it('dumpState and loadState: a fresh node that loads the dump reads the same state', async () => {
      const c = client();
      await c.setBalance({ address: OTHER, value: 123n });
      await c.setCode({ address: OTHER, bytecode: RETURNS_42 });
      const state = await c.dumpState();
      const other = await startTestNode();
      try {
        const fresh = createTestClient({ mode, chain: devChain, transport: http(other.url) }).extend(publicActions);
        await fresh.loadState({ state });
        expect(await fresh.getBalance({ address: OTHER })).to.equal(123n);
        expect(await fresh.getCode({ address: OTHER })).to.equal(RETURNS_42);
      } finally {
        await other.destroy();
      }
    });
  });
}

describe('viem test client on a chain without EIP-1559', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ hardfork: 'berlin' });
  });
  after(() => node.destroy());

  for (const mode of ['anvil', 'hardhat'] as const) {
    it(`${mode} mode: setMinGasPrice makes the pool refuse cheaper transactions`, async () => {
      const c = createTestClient({ mode, chain: devChain, transport: http(node.url) }).extend(walletActions);
      await c.setMinGasPrice({ gasPrice: 50_000_000_000n });
      const raw = await signTx({ key: devKey(mode === 'anvil' ? 1 : 2), nonce: 0, kind: 'eip155', gasPrice: 10_000_000_000n });
      expect((await refused(c.sendRawTransaction({ serializedTransaction: raw }))).message).to.match(/underpriced/);
    });
  }
});
