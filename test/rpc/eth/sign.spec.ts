import { expect } from 'chai';
import { verifyMessage as ethersVerify } from 'ethers';
import { recoverMessageAddress } from 'viem';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

describe('eth_sign', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('signs the EIP-191 personal message of the data with the account’s key: viem and ethers recover the account', async () => {
    const signature = await node.call('eth_sign', [DEV_ADDRESSES[1], '0x68656c6c6f']);
    expect(await recoverMessageAddress({ message: { raw: '0x68656c6c6f' }, signature: signature as `0x${string}` })).to.equal('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(ethersVerify(Uint8Array.from([0x68, 0x65, 0x6c, 0x6c, 0x6f]), signature).toLowerCase()).to.equal(DEV_ADDRESSES[1]);
  });

  it('signs bytes that are not text, and empty data', async () => {
    for (const data of ['0x00ff10', '0x'] as const) {
      const signature = await node.call('eth_sign', [DEV_ADDRESSES[0], data]);
      expect((await recoverMessageAddress({ message: { raw: data }, signature: signature as `0x${string}` })).toLowerCase()).to.equal(DEV_ADDRESSES[0]);
    }
  });

  it('is deterministic (RFC 6979), with v 27 or 28', async () => {
    const a = await node.call('eth_sign', [DEV_ADDRESSES[2], '0x1234']);
    expect(await node.call('eth_sign', [DEV_ADDRESSES[2], '0x1234'])).to.equal(a);
    expect(['1b', '1c']).to.include(a.slice(-2));
  });

  it('accepts a checksummed address', async () => {
    const signature = await node.call('eth_sign', ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '0x01']);
    expect(signature).to.equal(await node.call('eth_sign', [DEV_ADDRESSES[1], '0x01']));
  });

  it('refuses an address the node holds no key for, with -32000 unknown account', async () => {
    await expectRpcError(node.call('eth_sign', ['0x000000000000000000000000000000000000dead', '0x01']), -32000, /unknown account/);
  });
});
