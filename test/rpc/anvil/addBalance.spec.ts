import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';

const STRANGER = '0x0000000000000000000000000000000000000add';

describe('anvil_addBalance', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('adds to the balance at once, without a block, and answers null', async () => {
    await node.call('anvil_setBalance', [STRANGER, '0x10']);
    expect(await node.call('anvil_addBalance', [STRANGER, '0x5'])).to.equal(null);
    expect(await node.call('eth_getBalance', [STRANGER, 'latest'])).to.equal('0x15');
    expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
  });

  it('creates an account that does not exist with the amount', async () => {
    const fresh = '0x0000000000000000000000000000000000000ad2';
    await node.call('anvil_addBalance', [fresh, '0xde0b6b3a7640000']);
    expect(await node.call('eth_getBalance', [fresh, 'latest'])).to.equal('0xde0b6b3a7640000');
  });
});
