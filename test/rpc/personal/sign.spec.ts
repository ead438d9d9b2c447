import { expect } from 'chai';
import { JsonRpcProvider } from 'ethers';
import { createWalletClient, http, recoverMessageAddress } from 'viem';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

describe('personal_sign', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('signs as eth_sign does, with the data first', async () => {
    expect(await node.call('personal_sign', ['0x68656c6c6f', DEV_ADDRESSES[0]])).to.equal(await node.call('eth_sign', [DEV_ADDRESSES[0], '0x68656c6c6f']));
  });

  it('ignores geth’s password param', async () => {
    expect(await node.call('personal_sign', ['0x01', DEV_ADDRESSES[0], 'secret'])).to.equal(await node.call('personal_sign', ['0x01', DEV_ADDRESSES[0]]));
  });

  it('serves viem’s signMessage with a JSON-RPC account', async () => {
    const wallet = createWalletClient({ account: DEV_ADDRESSES[1], transport: http(node.url) });
    const signature = await wallet.signMessage({ message: 'hello from viem' });
    expect((await recoverMessageAddress({ message: 'hello from viem', signature })).toLowerCase()).to.equal(DEV_ADDRESSES[1]);
  });

  it('serves ethers’ JsonRpcSigner.signMessage', async () => {
    const provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true });
    try {
      const signer = await provider.getSigner(DEV_ADDRESSES[2]);
      const signature = await signer.signMessage('hello from ethers');
      const { verifyMessage } = await import('ethers');
      expect(verifyMessage('hello from ethers', signature).toLowerCase()).to.equal(DEV_ADDRESSES[2]);
    } finally {
      provider.destroy();
    }
  });

  it('refuses an address the node holds no key for, with -32000 unknown account', async () => {
    await expectRpcError(node.call('personal_sign', ['0x01', '0x000000000000000000000000000000000000dead']), -32000, /unknown account/);
  });
});
