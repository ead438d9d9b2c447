import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('net_version', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('answers the dev chain id as a decimal string', async () => {
    expect(await node.call('net_version', [])).to.equal('31337');
  });

  it('agrees with eth_chainId', async () => {
    expect(BigInt(await node.call('net_version', []))).to.equal(BigInt(await node.call('eth_chainId', [])));
  });

  it('answers the chain id given by --chain-id', async () => {
    const other = await startTestNode({ chainId: 1337n, genesisFlagsGiven: true });
    try {
      expect(await other.call('net_version', [])).to.equal('1337');
    } finally {
      await other.destroy();
    }
  });
});
