import { bytesToHex } from '@ethereumjs/util';
import { expect } from 'chai';
import WebSocket from 'ws';
import { wsUrl } from '../../helpers/ws-rpc.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devAddress, devKey, GWEI, signTx, SINK, txHash } from '../../helpers/transactions.js';

const ZERO_ADDRESS = `0x${'00'.repeat(20)}`;

describe('txpool_content', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  it('an empty pool: empty maps, counters as JSON numbers, the default limit', async () => {
    expect(await node.call('txpool_content', [])).to.deep.equal({
      pending: {},
      queued: {},
      txCountLimit: 10_000,
      txCount: 0,
      readyTxCount: 0,
      notReadyTxCount: 0,
    });
  });

  it('maps sender → decimal nonce → pool transaction (SPEC 2.6: null block members, incentiveAddress)', async () => {
    const raw = await signTx({ key: devKey(0), nonce: 0, value: 5n, maxFeePerGas: 12n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    await node.call('eth_sendRawTransaction', [raw]);
    const content = await node.call('txpool_content', []);
    const tx = content.pending[devAddress(0)]['0'];
    expect(tx).to.deep.include({
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      from: devAddress(0),
      to: SINK,
      hash: txHash(raw),
      nonce: '0x0',
      value: '0x5',
      gas: '0x5208',
      type: '0x2',
      chainId: '0x7a69',
      maxFeePerGas: `0x${(12n * GWEI).toString(16)}`,
      maxPriorityFeePerGas: `0x${(2n * GWEI).toString(16)}`,
      gasPrice: `0x${(12n * GWEI).toString(16)}`,
      input: '0x',
      incentiveAddress: ZERO_ADDRESS,
    });
    expect(tx.v).to.match(/^0x[01]$/);
    expect(tx.yParity).to.equal(tx.v);
    expect(tx.accessList).to.deep.equal([]);
    expect(content).to.include({ txCount: 1, readyTxCount: 1, notReadyTxCount: 0 });
  });

  it('nonce keys are decimal strings (10, not a), while the nonce member stays hex', async () => {
    const raw = await signTx({ key: devKey(1), nonce: 10 });
    await node.call('eth_sendRawTransaction', [raw]);
    const queued = (await node.call('txpool_content', [])).queued[devAddress(1)];
    expect(Object.keys(queued)).to.deep.equal(['10']);
    expect(queued['10'].nonce).to.equal('0xa');
    expect(queued['10'].hash).to.equal(txHash(raw));
  });

  it('a legacy transaction: gasPrice, no fee-market members; pre-EIP-155 has no chainId', async () => {
    const raw = await signTx({ key: devKey(2), nonce: 0, kind: 'legacy', gasPrice: 7n * GWEI });
    await node.call('eth_sendRawTransaction', [raw]);
    const tx = (await node.call('txpool_content', [])).pending[devAddress(2)]['0'];
    expect(tx.type).to.equal('0x0');
    expect(tx.gasPrice).to.equal(`0x${(7n * GWEI).toString(16)}`);
    expect(tx).to.not.have.property('maxFeePerGas');
    expect(tx).to.not.have.property('chainId');
    expect(['0x1b', '0x1c']).to.include(tx.v);
  });

  it('a contract creation has a null `to`', async () => {
    const raw = await signTx({ key: devKey(3), nonce: 0, to: null, gas: 100_000n, data: '0x6000600055' });
    await node.call('eth_sendRawTransaction', [raw]);
    const tx = (await node.call('txpool_content', [])).pending[devAddress(3)]['0'];
    expect(tx.to).to.equal(null);
    expect(tx.input).to.equal('0x6000600055');
  });

  it('the counters add up', async () => {
    const content = await node.call('txpool_content', []);
    const count = (m: Record<string, Record<string, unknown>>) => Object.values(m).reduce((n, byNonce) => n + Object.keys(byNonce).length, 0);
    expect(content.readyTxCount).to.equal(count(content.pending));
    expect(content.notReadyTxCount).to.equal(count(content.queued));
    expect(content.txCount).to.equal(content.readyTxCount + content.notReadyTxCount);
    expect(content.txCount).to.equal(4);
  });

  it('answers the same content over WebSocket, in a text frame', async () => {
    const overHttp = await node.call('txpool_content', []);
    expect(overHttp.txCount).to.be.greaterThan(0);
    const socket = new WebSocket(wsUrl(node.url));
    try {
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const frame = new Promise<{ data: string; binary: boolean }>((resolve) => socket.once('message', (data, binary) => resolve({ data: data.toString(), binary })));
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'txpool_content', params: [] }));
      const { data, binary } = await frame;
      expect(binary).to.equal(false);
      expect(JSON.parse(data)).to.deep.equal({ jsonrpc: '2.0', id: 1, result: overHttp });
    } finally {
      socket.terminate();
    }
  });

  it('reports the configured limit as txCountLimit', async () => {
    const small = await startTestNode({ mining: false, txpoolLimit: 7 });
    try {
      expect((await small.call('txpool_content', [])).txCountLimit).to.equal(7);
    } finally {
      await small.destroy();
    }
  });

  it('answers an unchanged pool the same, call after call', async () => {
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(12), nonce: 0 })]);
    const first = await node.call('txpool_content', []);
    expect(await node.call('txpool_content', [])).to.deep.equal(first);
    expect(first.pending[devAddress(12)]).to.have.keys('0');
  });

  it('moves a queued transaction to pending once the gap before it is filled', async () => {
    const later = await signTx({ key: devKey(13), nonce: 1 });
    await node.call('eth_sendRawTransaction', [later]);
    expect((await node.call('txpool_content', [])).queued[devAddress(13)]['1'].hash).to.equal(txHash(later));
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(13), nonce: 0 })]);
    const content = await node.call('txpool_content', []);
    expect(content.queued[devAddress(13)]).to.equal(undefined);
    expect(content.pending[devAddress(13)]).to.have.keys('0', '1');
  });

  it("moves a queued transaction to pending when the account's nonce is set to it, no transaction added", async () => {
    const later = await signTx({ key: devKey(15), nonce: 1 });
    await node.call('eth_sendRawTransaction', [later]);
    expect((await node.call('txpool_content', [])).queued[devAddress(15)]).to.have.keys('1');
    await node.call('anvil_setNonce', [devAddress(15), '0x1']);
    const content = await node.call('txpool_content', []);
    expect(content.queued[devAddress(15)]).to.equal(undefined);
    expect(content.pending[devAddress(15)]['1'].hash).to.equal(txHash(later));
  });

  it('shows the replacement, not the transaction it replaced', async () => {
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(14), nonce: 0, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI })]);
    await node.call('txpool_content', []);
    const replacement = await signTx({ key: devKey(14), nonce: 0, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    await node.call('eth_sendRawTransaction', [replacement]);
    expect((await node.call('txpool_content', [])).pending[devAddress(14)]['0'].hash).to.equal(txHash(replacement));
  });

  it('never lists a transaction of a block that has landed: it leaves the pool as the head moves', async () => {
    const raws = await Promise.all([0, 1, 2].map((i) => signTx({ key: devKey(11), nonce: i })));
    for (const raw of raws) await node.call('eth_sendRawTransaction', [raw]);
    const { chain, pool } = node.node.services;
    const stillPooled: string[] = [];
    chain.onBlock((block) => {
      for (const tx of block.transactions) if (pool.has(bytesToHex(tx.hash()))) stillPooled.push(bytesToHex(tx.hash()));
    });
    await node.call('evm_mine', []);
    expect((await node.call('eth_getBlockByNumber', ['latest', false]))!.transactions).to.include.members(raws.map(txHash));
    expect(stillPooled).to.deep.equal([]);
  });
});
