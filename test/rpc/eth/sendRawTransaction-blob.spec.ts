import { expect } from 'chai';
import { createBlob4844Tx } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { loadKzg } from '../../../src/crypto/kzg.js';
import { DEV_ADDRESSES, DEV_KEYS, startTestNode, type TestNode } from '../../helpers/node.js';

const GWEI = 10n ** 9n;
const SINK = '0x000000000000000000000000000000000000dead';

describe('eth_sendRawTransaction: blob transactions', function () {
  this.timeout(120_000);
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('accepts a blob transaction in its Osaka network form (cell proofs), mines it, and reports its blob gas', async () => {
    await loadKzg();
    const { chain } = node.node.services;
    const head = chain.head();
    const common = chain.commons.at({ number: head.header.number + 1n, timestamp: head.header.timestamp + 1n });
    const tx = createBlob4844Tx(
      {
        chainId: common.chainId(),
        nonce: 0n,
        maxPriorityFeePerGas: GWEI,
        maxFeePerGas: 10n * GWEI,
        maxFeePerBlobGas: 10n * GWEI,
        gasLimit: 21_000n,
        to: SINK,
        blobsData: ['hello, blobs'],
        networkWrapperVersion: 1,
      },
      { common },
    ).sign(hexToBytes(DEV_KEYS[0]));
    const hash = await node.call('eth_sendRawTransaction', [bytesToHex(tx.serializeNetworkWrapper())]);
    expect(hash).to.equal(bytesToHex(tx.hash()));

    const receipt = (await node.call('eth_getTransactionReceipt', [hash])) as unknown as Record<string, unknown>;
    expect(receipt).to.include({ status: '0x1', type: '0x3', from: DEV_ADDRESSES[0], blobGasUsed: '0x20000' });
    expect(receipt.blobGasPrice).to.match(/^0x[0-9a-f]+$/);
    const mined = (await node.call('eth_getTransactionByHash', [hash])) as unknown as Record<string, unknown>;
    expect(mined.blobVersionedHashes).to.deep.equal(tx.blobVersionedHashes);
    const block = (await node.call('eth_getBlockByNumber', [receipt.blockNumber as string, false])) as unknown as Record<string, unknown>;
    expect(block.blobGasUsed).to.equal('0x20000');
  });
});
