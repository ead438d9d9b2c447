import { expect } from 'chai';
import { JsonRpcProvider, verifyTypedData } from 'ethers';
import { createWalletClient, http, recoverTypedDataAddress } from 'viem';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';
import { MAIL_TYPED_DATA } from '../../helpers/typed-data.js';

describe('eth_signTypedData_v4', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  const recovered = (signature: string) => recoverTypedDataAddress({ ...(MAIL_TYPED_DATA as object), signature: signature as `0x${string}` } as never);

  it('signs the EIP-712 hash (nested structs and arrays): viem recovers the account', async () => {
    const signature = await node.call('eth_signTypedData_v4', [DEV_ADDRESSES[1], MAIL_TYPED_DATA as never]);
    expect((await recovered(signature)).toLowerCase()).to.equal(DEV_ADDRESSES[1]);
  });

  it('takes the typed data as a JSON string too, as wallets send it', async () => {
    const asObject = await node.call('eth_signTypedData_v4', [DEV_ADDRESSES[0], MAIL_TYPED_DATA as never]);
    expect(await node.call('eth_signTypedData_v4', [DEV_ADDRESSES[0], JSON.stringify(MAIL_TYPED_DATA)])).to.equal(asObject);
  });

  it('serves viem’s signTypedData with a JSON-RPC account', async () => {
    const wallet = createWalletClient({ account: DEV_ADDRESSES[2], transport: http(node.url) });
    const signature = await wallet.signTypedData(MAIL_TYPED_DATA as never);
    expect((await recovered(signature)).toLowerCase()).to.equal(DEV_ADDRESSES[2]);
  });

  it('serves ethers’ JsonRpcSigner.signTypedData, which ethers verifies', async () => {
    const provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true });
    try {
      const signer = await provider.getSigner(DEV_ADDRESSES[1]);
      const { EIP712Domain: _, ...types } = MAIL_TYPED_DATA.types;
      const signature = await signer.signTypedData(MAIL_TYPED_DATA.domain, types as never, MAIL_TYPED_DATA.message);
      expect(verifyTypedData(MAIL_TYPED_DATA.domain, types as never, MAIL_TYPED_DATA.message, signature).toLowerCase()).to.equal(DEV_ADDRESSES[1]);
    } finally {
      provider.destroy();
    }
  });

  it('refuses typed data that breaks EIP-712, with -32602 naming the problem', async () => {
    const unknownType = { ...MAIL_TYPED_DATA, primaryType: 'Letter' };
    await expectRpcError(node.call('eth_signTypedData_v4', [DEV_ADDRESSES[0], unknownType as never]), -32602, /invalid typed data/);
    const badValue = { ...MAIL_TYPED_DATA, message: { ...MAIL_TYPED_DATA.message, amount: 'lots' } };
    await expectRpcError(node.call('eth_signTypedData_v4', [DEV_ADDRESSES[0], badValue as never]), -32602, /invalid typed data/);
    await expectRpcError(node.call('eth_signTypedData_v4', [DEV_ADDRESSES[0], '{not json']), -32602, /invalid typed data: not JSON/);
  });

  it('refuses an address the node holds no key for, with -32000 unknown account', async () => {
    await expectRpcError(node.call('eth_signTypedData_v4', ['0x000000000000000000000000000000000000dead', MAIL_TYPED_DATA as never]), -32000, /unknown account/);
  });
});
