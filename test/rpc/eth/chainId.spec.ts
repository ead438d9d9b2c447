import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_chainId', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('answers the dev chain id 31337 as a hex quantity', async () => {
    expect(await node.call('eth_chainId', [])).to.equal('0x7a69');
  });

  it('answers the chain id given by --chain-id', async () => {
    const other = await startTestNode({ chainId: 1337n, genesisFlagsGiven: true });
    try {
      expect(await other.call('eth_chainId', [])).to.equal('0x539');
    } finally {
      await other.destroy();
    }
  });
});
