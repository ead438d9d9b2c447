import { expect } from 'chai';
import { genesisFileWith } from '../../helpers/genesis-file.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, signTx } from '../../helpers/transactions.js';

describe('eth_baseFee', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  it('the next block\'s base fee: what eth_gasPrice adds the suggested tip to', async () => {
    const [baseFee, gasPrice, tip] = await Promise.all([node.call('eth_baseFee', []), node.call('eth_gasPrice', []), node.call('eth_maxPriorityFeePerGas', [])]);
    expect(BigInt(baseFee!) + BigInt(tip)).to.equal(BigInt(gasPrice));
  });

  it('is what the next block charges', async () => {
    const expected = await node.call('eth_baseFee', []);
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(0), nonce: 0 })]);
    await node.call('evm_mine', []);
    expect((await node.call('eth_getBlockByNumber', ['latest', false]))!.baseFeePerGas).to.equal(expected);
  });

  it('falls while blocks are emptier than their target', async () => {
    const before = BigInt((await node.call('eth_baseFee', []))!);
    await node.call('evm_mine', []);
    const after = BigInt((await node.call('eth_baseFee', []))!);
    expect(after < before, `${after} after ${before}`).to.equal(true);
  });

  it('null when the next block is before London', async () => {
    const genesis = await genesisFileWith((config) => {
      config.londonBlock = 100;
    }, 'berlin');
    const berlin = await startTestNode({ genesis, genesisFlagsGiven: true });
    try {
      expect(await berlin.call('eth_baseFee', [])).to.equal(null);
    } finally {
      await berlin.destroy();
    }
  });
});
