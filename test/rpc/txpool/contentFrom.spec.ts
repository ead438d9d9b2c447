import { expect } from 'chai';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devAddress, devKey, signTx, txHash } from '../../helpers/transactions.js';

describe('txpool_contentFrom', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  const send = async (key: `0x${string}`, nonce: number) => node.call('eth_sendRawTransaction', [await signTx({ key, nonce })]);

  it('an account with nothing pooled: empty maps, both nonces at the account nonce', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    expect(await node.call('txpool_contentFrom', [stranger])).to.deep.equal({ pending: {}, queued: {}, commitNonce: 0, pendingNonce: 0, txCount: 0 });
  });

  it('commitNonce follows mined transactions', async () => {
    await send(devKey(0), 0);
    await send(devKey(0), 1);
    await node.call('evm_mine', []);
    expect(await node.call('txpool_contentFrom', [devAddress(0)])).to.deep.equal({ pending: {}, queued: {}, commitNonce: 2, pendingNonce: 2, txCount: 0 });
  });

  it('pendingNonce is the next nonce after the unbroken run; queued ones do not count', async () => {
    await send(devKey(1), 0);
    await send(devKey(1), 1);
    await send(devKey(1), 3);
    const from = await node.call('txpool_contentFrom', [devAddress(1)]);
    expect(Object.keys(from.pending)).to.deep.equal(['0', '1']);
    expect(Object.keys(from.queued)).to.deep.equal(['3']);
    expect(from).to.include({ commitNonce: 0, pendingNonce: 2, txCount: 3 });
  });

  it('eth_getTransactionCount(address, "pending") equals pendingNonce', async () => {
    const from = await node.call('txpool_contentFrom', [devAddress(1)]);
    expect(await node.call('eth_getTransactionCount', [devAddress(1), 'pending'])).to.equal(`0x${from.pendingNonce.toString(16)}`);
    expect(await node.call('eth_getTransactionCount', [devAddress(1), 'latest'])).to.equal(`0x${from.commitNonce.toString(16)}`);
  });

  it('a wallet that takes its nonce from the pending count never collides with the pool', async () => {
    const key = devKey(2);
    for (let i = 0; i < 3; i++) {
      const nonce = Number(BigInt(await node.call('eth_getTransactionCount', [devAddress(2), 'pending'])));
      await send(key, nonce);
    }
    const from = await node.call('txpool_contentFrom', [devAddress(2)]);
    expect(Object.keys(from.pending)).to.deep.equal(['0', '1', '2']);
    expect(from.pendingNonce).to.equal(3);
  });

  it('accepts a checksummed address and lists pool transactions (SPEC 2.6)', async () => {
    const raw = await signTx({ key: devKey(3), nonce: 0 });
    await node.call('eth_sendRawTransaction', [raw]);
    const from = await node.call('txpool_contentFrom', [privateKeyToAccount(devKey(3)).address]);
    expect(from.pending['0']).to.deep.include({ hash: txHash(raw), blockHash: null, blockNumber: null, transactionIndex: null, from: devAddress(3) });
  });

  it('filling the gap moves queued transactions to pending and advances pendingNonce', async () => {
    await send(devKey(1), 2);
    const from = await node.call('txpool_contentFrom', [devAddress(1)]);
    expect(Object.keys(from.pending)).to.deep.equal(['0', '1', '2', '3']);
    expect(from.queued).to.deep.equal({});
    expect(from.pendingNonce).to.equal(4);
  });
});
