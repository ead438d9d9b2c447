import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devAddress, devKey, signTx, txHash } from '../../helpers/transactions.js';

describe('eth_getTransactionByBlockHashAndIndex', () => {
  let node: TestNode;
  let blockHash: string;
  const hashes: string[] = [];

  before(async () => {
    node = await startTestNode({ mining: false });
    for (const nonce of [0, 1, 2]) {
      const raw = await signTx({ key: devKey(0), nonce });
      await node.call('eth_sendRawTransaction', [raw]);
      hashes.push(txHash(raw));
    }
    await node.call('evm_mine', []);
    blockHash = (await node.call('eth_getBlockByNumber', ['latest', false]))!.hash;
  });
  after(() => node.destroy());

  it('answers the transaction at each index (SPEC 2.5), the same as eth_getTransactionByHash', async () => {
    for (let i = 0; i < 3; i++) {
      const tx = (await node.call('eth_getTransactionByBlockHashAndIndex', [blockHash, `0x${i}`]))!;
      expect(tx).to.include({ blockHash, transactionIndex: `0x${i}`, hash: hashes[i], from: devAddress(0), nonce: `0x${i}` });
      expect(tx).to.deep.equal(await node.call('eth_getTransactionByHash', [hashes[i]]));
    }
  });

  it('an index past the last transaction: null', async () => {
    expect(await node.call('eth_getTransactionByBlockHashAndIndex', [blockHash, '0x3'])).to.equal(null);
  });

  it('an unknown block hash: null', async () => {
    expect(await node.call('eth_getTransactionByBlockHashAndIndex', [`0x${'12'.repeat(32)}`, '0x0'])).to.equal(null);
  });

  it('a block without transactions: null', async () => {
    await node.call('evm_mine', []);
    const empty = (await node.call('eth_getBlockByNumber', ['latest', false]))!.hash;
    expect(await node.call('eth_getTransactionByBlockHashAndIndex', [empty, '0x0'])).to.equal(null);
  });
});
