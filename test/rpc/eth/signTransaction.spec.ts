import { expect } from 'chai';
import { JsonRpcProvider, Transaction } from 'ethers';
import { createWalletClient, http, recoverTransactionAddress, type TransactionSerialized } from 'viem';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError, SINK, txHash } from '../../helpers/transactions.js';

describe('eth_signTransaction', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('answers the raw signed transaction, filled in as eth_sendTransaction fills it, and sends nothing', async () => {
    const raw = await node.call('eth_signTransaction', [{ from: DEV_ADDRESSES[1], to: SINK, value: '0x2a' }]);
    const tx = Transaction.from(raw);
    expect(tx.from?.toLowerCase()).to.equal(DEV_ADDRESSES[1]);
    expect(tx).to.include({ to: '0x000000000000000000000000000000000000dEaD', value: 42n, nonce: 0, gasLimit: 21_000n, chainId: 31337n, type: 2 });
    expect((await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized })).toLowerCase()).to.equal(DEV_ADDRESSES[1]);
    expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
    expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x0' });
  });

  it('signs what eth_sendRawTransaction then takes', async () => {
    const raw = await node.call('eth_signTransaction', [{ from: DEV_ADDRESSES[0], to: SINK, value: '0x1' }]);
    expect(await node.call('eth_sendRawTransaction', [raw])).to.equal(txHash(raw as `0x${string}`));
    expect(await node.call('eth_getBalance', [SINK, 'latest'])).to.equal('0x1');
  });

  it('signs the eth_sendTransaction example exactly as eth_sendRawTransaction’s example carries it', async () => {
    const request = { from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0xde0b6b3a7640000', gas: '0x5208', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x3b9aca00', nonce: '0x0', chainId: '0x7a69' };
    const raw = await node.call('eth_signTransaction', [request]);
    expect(txHash(raw as `0x${string}`)).to.equal(await node.call('eth_sendTransaction', [request]));
  });

  it('serves viem’s signTransaction and ethers’ JsonRpcSigner.signTransaction', async () => {
    const wallet = createWalletClient({ account: DEV_ADDRESSES[2], transport: http(node.url) });
    const signed = await wallet.signTransaction({ account: DEV_ADDRESSES[2], to: SINK, value: 5n, chain: null } as never);
    expect((await recoverTransactionAddress({ serializedTransaction: signed as TransactionSerialized })).toLowerCase()).to.equal(DEV_ADDRESSES[2]);
    const provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true });
    try {
      const signer = await provider.getSigner(DEV_ADDRESSES[1]);
      const raw = await signer.signTransaction({ to: SINK, value: 7n });
      expect(Transaction.from(raw).from?.toLowerCase()).to.equal(DEV_ADDRESSES[1]);
    } finally {
      provider.destroy();
    }
  });

  it('refuses an address the node holds no key for, with -32000 unknown account, even when impersonated', async () => {
    await node.call('anvil_impersonateAccount', [SINK]);
    await expectRpcError(node.call('eth_signTransaction', [{ from: SINK, to: SINK }]), -32000, /unknown account/);
  });
});
