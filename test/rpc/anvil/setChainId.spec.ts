import { expect } from 'chai';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, expectRpcError, signTx } from '../../helpers/transactions.js';

const CONTRACT = '0x0000000000000000000000000000000000c0de01';

describe('anvil_setChainId', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('changes the chain id the node answers and signs for; the state moves along', async () => {
    await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0xde0b6b3a7640000' }]);
    await node.call('anvil_setCode', [CONTRACT, '0x602a60005260206000f3']);
    const before = await Promise.all(DEV_ADDRESSES.map((a) => node.call('eth_getBalance', [a, 'latest'])));
    expect(await node.call('anvil_setChainId', [1337])).to.equal(null);
    expect(await node.call('eth_chainId', [])).to.equal('0x539');
    expect(await node.call('net_version', [])).to.equal('1337');
    expect(await Promise.all(DEV_ADDRESSES.map((a) => node.call('eth_getBalance', [a, 'latest'])))).to.deep.equal(before);
    expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'latest'])).to.equal('0x1');
    expect(await node.call('eth_getCode', [CONTRACT, 'latest'])).to.equal('0x602a60005260206000f3');
    // The chain starts again from a genesis of that id, as after anvil_reset.
    expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
    const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
    expect((await node.call('eth_getTransactionByHash', [hash]))!.chainId).to.equal('0x539');
  });

  it('refuses an id past the largest whose legacy signatures a JSON number holds (4503599627370476), with -32602', async () => {
    await expectRpcError(node.call('anvil_setChainId', [4503599627370477]), -32602, /not between 1 and 4503599627370476/);
    expect(await node.call('eth_chainId', [])).to.equal('0x7a69');
  });

  it('then refuses transactions signed for the old id, as any chain refuses another chain’s', async () => {
    await node.call('anvil_setChainId', [1337]);
    const raw = await signTx({ key: devKey(0), nonce: 0, kind: 'eip1559', chainId: 31337 });
    await expectRpcError(node.call('eth_sendRawTransaction', [raw]), -32000, /chain id/i);
  });

  it('survives a restart of its data dir', async () => {
    await node.call('anvil_setChainId', [1337]);
    await node.stop();
    const again = await startTestNode({}, node.dataDir);
    try {
      expect(await again.call('eth_chainId', [])).to.equal('0x539');
    } finally {
      await again.stop();
    }
  });
});
