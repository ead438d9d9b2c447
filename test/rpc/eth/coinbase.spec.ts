import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_coinbase', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('answers the zero address on the dev chain, as anvil does', async () => {
    expect(await node.call('eth_coinbase', [])).to.equal('0x0000000000000000000000000000000000000000');
  });

  it('answers the coinbase anvil_setCoinbase set, which the next block pays', async () => {
    const coinbase = '0x000000000000000000000000000000000000c0b1';
    await node.call('anvil_setCoinbase', [coinbase]);
    expect(await node.call('eth_coinbase', [])).to.equal(coinbase);
    await node.call('evm_mine', []);
    expect((await node.call('eth_getBlockByNumber', ['latest', false]))!.miner).to.equal(coinbase);
  });
});
