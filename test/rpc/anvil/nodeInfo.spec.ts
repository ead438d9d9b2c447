import { expect } from 'chai';
import { blockAt, hex } from '../../helpers/dev-calls.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('anvil_nodeInfo', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode({ mining: false });
  });
  afterEach(() => node.destroy());

  it('describes the head, the fork and the next block’s environment, in anvil’s shape', async () => {
    await node.call('evm_mine', []);
    const head = await blockAt(node, 'latest');
    const info = await node.call('anvil_nodeInfo', []);
    expect(info).to.include({ currentBlockNumber: '0x1', currentBlockHash: head.hash, currentBlockTimestamp: Number(head.timestamp), hardFork: 'osaka', transactionOrder: 'fees' });
    const gasPrice = await node.call('eth_gasPrice', []);
    // The suggested tip is 1 gwei on top of the next block's base fee.
    expect(info.environment).to.deep.equal({ baseFee: hex(BigInt(gasPrice) - 1_000_000_000n), chainId: 31337, gasLimit: '0x1c9c380', gasPrice });
    expect(info.forkConfig).to.deep.equal({ forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null, forkBlockHash: null, forkChainId: null, offline: false, stateRoots: null });
  });

  it('reports the next block’s settings: its base fee and gas limit', async () => {
    await node.call('anvil_setNextBlockBaseFeePerGas', ['0x3b9aca00']);
    await node.call('evm_setBlockGasLimit', ['0x2faf080']);
    const { environment } = await node.call('anvil_nodeInfo', []);
    expect(environment).to.include({ baseFee: '0x3b9aca00', gasLimit: '0x2faf080', gasPrice: '0x77359400' });
  });

  it('names the fork of a chain started on another', async () => {
    const other = await startTestNode({ hardfork: 'cancun' });
    try {
      expect((await other.call('anvil_nodeInfo', [])).hardFork).to.equal('cancun');
    } finally {
      await other.destroy();
    }
  });
});
