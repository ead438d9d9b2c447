import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_blobBaseFee', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  it('answers the blob base fee of the next block, as eth_feeHistory names it', async () => {
    const history = await node.call('eth_feeHistory', ['0x1', 'latest', []]);
    expect(await node.call('eth_blobBaseFee', [])).to.equal(history.baseFeePerBlobGas!.at(-1));
  });

  it('answers the minimum, 1 wei, while no blob gas has been used', async () => {
    await node.call('evm_mine', []);
    expect(await node.call('eth_blobBaseFee', [])).to.equal('0x1');
  });

  it('answers 0x0 on a chain before Cancun, which has no blob gas', async () => {
    const shanghai = await startTestNode({ hardfork: 'shanghai', genesisFlagsGiven: true });
    try {
      expect(await shanghai.call('eth_blobBaseFee', [])).to.equal('0x0');
    } finally {
      await shanghai.destroy();
    }
  });
});
