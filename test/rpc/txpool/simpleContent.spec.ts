import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devAddress, devKey, signTx, txHash } from '../../helpers/transactions.js';

describe('txpool_simpleContent', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false, txpoolLimit: 50 });
  });
  after(() => node.destroy());

  it('an empty pool: no accounts, zero counters, the limit', async () => {
    expect(await node.call('txpool_simpleContent', [])).to.deep.equal({
      simpleAccountContent: {},
      txCountLimit: 50,
      txCount: 0,
      readyTxCount: 0,
      notReadyTxCount: 0,
    });
  });

  it('per account: {Nonce, TxHash} entries ordered by nonce, numeric nonces and counters', async () => {
    const raws = [await signTx({ key: devKey(0), nonce: 1 }), await signTx({ key: devKey(0), nonce: 0 }), await signTx({ key: devKey(0), nonce: 4 })];
    for (const raw of raws) await node.call('eth_sendRawTransaction', [raw]);
    const simple = await node.call('txpool_simpleContent', []);
    expect(simple.simpleAccountContent[devAddress(0)]).to.deep.equal({
      pending: [
        { Nonce: 0, TxHash: txHash(raws[1]) },
        { Nonce: 1, TxHash: txHash(raws[0]) },
      ],
      queued: [{ Nonce: 4, TxHash: txHash(raws[2]) }],
      commitNonce: 0,
      pendingNonce: 2,
      txCount: 3,
    });
    expect(simple).to.include({ txCountLimit: 50, txCount: 3, readyTxCount: 2, notReadyTxCount: 1 });
  });

  it('an account with only pending transactions has an empty queued array', async () => {
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0 })]);
    const account = (await node.call('txpool_simpleContent', [])).simpleAccountContent[devAddress(1)];
    expect(account.queued).to.deep.equal([]);
    expect(account.pending).to.have.length(1);
  });

  it('mined transactions leave, and the account entry goes with its last transaction', async () => {
    await node.call('evm_mine', []);
    const simple = await node.call('txpool_simpleContent', []);
    expect(simple.simpleAccountContent).to.not.have.property(devAddress(1));
    expect(simple.simpleAccountContent[devAddress(0)]).to.deep.include({ pending: [], commitNonce: 2, pendingNonce: 2, txCount: 1 });
    expect(simple).to.include({ txCount: 1, readyTxCount: 0, notReadyTxCount: 1 });
  });
});
