import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devAddress, devKey, GWEI, signTx, SINK } from '../../helpers/transactions.js';

const hex = (n: bigint) => `0x${n.toString(16)}`;

describe('txpool_inspect', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  it('an empty pool: empty maps', async () => {
    expect(await node.call('txpool_inspect', [])).to.deep.equal({ pending: {}, queued: {} });
  });

  it('summarises a transfer as "<to>: <value> wei + <gas> gas × <gasPrice> wei" in hex (fee cap for EIP-1559)', async () => {
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(0), nonce: 0, value: 1000n, maxFeePerGas: 12n * GWEI })]);
    const inspect = await node.call('txpool_inspect', []);
    expect(inspect.pending[devAddress(0)]).to.deep.equal({ '0': `${SINK}: ${hex(1000n)} wei + ${hex(21_000n)} gas × ${hex(12n * GWEI)} wei` });
  });

  it('uses the gas price of a legacy transaction', async () => {
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0, kind: 'eip155', gasPrice: 3n * GWEI, value: 0n, gas: 30_000n })]);
    const inspect = await node.call('txpool_inspect', []);
    expect(inspect.pending[devAddress(1)]['0']).to.equal(`${SINK}: 0x0 wei + ${hex(30_000n)} gas × ${hex(3n * GWEI)} wei`);
  });

  it('says "contract creation" in place of <to> for a deployment', async () => {
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(2), nonce: 0, to: null, value: 0n, gas: 100_000n, data: '0x6000' })]);
    const inspect = await node.call('txpool_inspect', []);
    expect(inspect.pending[devAddress(2)]['0']).to.equal(`contract creation: 0x0 wei + ${hex(100_000n)} gas × ${hex(10n * GWEI)} wei`);
  });

  it('lists queued transactions under queued, keyed by decimal nonce', async () => {
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(3), nonce: 12 })]);
    const inspect = await node.call('txpool_inspect', []);
    expect(Object.keys(inspect.queued[devAddress(3)])).to.deep.equal(['12']);
    expect(inspect.pending).to.not.have.property(devAddress(3));
  });
});
