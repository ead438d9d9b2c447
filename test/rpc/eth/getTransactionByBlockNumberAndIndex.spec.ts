import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, signTx, txHash } from '../../helpers/transactions.js';

describe('eth_getTransactionByBlockNumberAndIndex', () => {
  let node: TestNode;
  let number: string;
  const hashes: string[] = [];

  before(async () => {
    node = await startTestNode({ mining: false });
    for (const nonce of [0, 1]) {
      const raw = await signTx({ key: devKey(0), nonce });
      await node.call('eth_sendRawTransaction', [raw]);
      hashes.push(txHash(raw));
    }
    await node.call('evm_mine', []);
    number = await node.call('eth_blockNumber', []);
  });
  after(() => node.destroy());

  it('answers the transaction at an index of a numbered block', async () => {
    const tx = (await node.call('eth_getTransactionByBlockNumberAndIndex', [number, '0x1']))!;
    expect(tx).to.include({ blockNumber: number, transactionIndex: '0x1', hash: hashes[1] });
  });

  it('takes the latest tag', async () => {
    expect((await node.call('eth_getTransactionByBlockNumberAndIndex', ['latest', '0x0']))!.hash).to.equal(hashes[0]);
  });

  it('earliest (genesis, no transactions): null', async () => {
    expect(await node.call('eth_getTransactionByBlockNumberAndIndex', ['earliest', '0x0'])).to.equal(null);
  });

  it('an index out of range: null', async () => {
    expect(await node.call('eth_getTransactionByBlockNumberAndIndex', [number, '0x2'])).to.equal(null);
  });

  it('a block past the head: null', async () => {
    expect(await node.call('eth_getTransactionByBlockNumberAndIndex', ['0x100', '0x0'])).to.equal(null);
  });

  it('the pending tag: the pool transaction the next block would hold', async () => {
    const raw = await signTx({ key: devKey(1), nonce: 0 });
    await node.call('eth_sendRawTransaction', [raw]);
    const tx = (await node.call('eth_getTransactionByBlockNumberAndIndex', ['pending', '0x0']))!;
    expect(tx.hash).to.equal(txHash(raw));
    expect(tx.blockNumber).to.equal(`0x${(BigInt(number) + 1n).toString(16)}`);
  });
});
