import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, expectRpcError, GWEI, signTx } from '../../helpers/transactions.js';

const hex = (n: bigint | number) => `0x${n.toString(16)}`;

describe('eth_feeHistory', () => {
  let node: TestNode;
  let txBlock: bigint;
  before(async () => {
    node = await startTestNode({ mining: false });
    await node.call('evm_mine', []);
    // One block with three transfers tipping 1, 2 and 3 gwei.
    for (const [i, tip] of [1n, 2n, 3n].entries()) {
      await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(i), nonce: 0, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: tip * GWEI })]);
    }
    await node.call('evm_mine', []);
    txBlock = BigInt(await node.call('eth_blockNumber', []));
    await node.call('evm_mine', []);
  });
  after(() => node.destroy());

  it('shape: oldestBlock, one more base fee than blocks (the next block’s), a ratio per block, blob members on Cancun+', async () => {
    const history = await node.call('eth_feeHistory', ['0x3', 'latest', []]);
    const head = BigInt(await node.call('eth_blockNumber', []));
    expect(history.oldestBlock).to.equal(hex(head - 2n));
    expect(history.baseFeePerGas).to.have.length(4);
    expect(history.gasUsedRatio).to.have.length(3);
    expect(history.baseFeePerBlobGas).to.have.length(4);
    expect(history.blobGasUsedRatio).to.have.length(3);
    expect(history).to.not.have.property('reward');
  });

  it('values: each block’s base fee and gasUsed / gasLimit; the last base fee is the pending block’s', async () => {
    const history = await node.call('eth_feeHistory', ['0x3', 'latest', []]);
    for (let i = 0; i < 3; i++) {
      const block = (await node.call('eth_getBlockByNumber', [hex(BigInt(history.oldestBlock) + BigInt(i)), false]))!;
      expect(history.baseFeePerGas[i]).to.equal(block.baseFeePerGas);
      expect(history.gasUsedRatio[i]).to.equal(Number(BigInt(block.gasUsed)) / Number(BigInt(block.gasLimit)));
    }
    expect(history.baseFeePerGas[3]).to.equal((await node.call('eth_getBlockByNumber', ['pending', false]))!.baseFeePerGas);
  });

  it('reward: the effective tip at each percentile of the block’s gas', async () => {
    const history = await node.call('eth_feeHistory', ['0x1', hex(txBlock), [0, 50, 100]]);
    expect(history.oldestBlock).to.equal(hex(txBlock));
    expect(history.reward).to.deep.equal([[hex(GWEI), hex(2n * GWEI), hex(3n * GWEI)]]);
    expect(history.gasUsedRatio[0]).to.equal(63_000 / 30_000_000);
  });

  it('reward of an empty block: zeros', async () => {
    const history = await node.call('eth_feeHistory', ['0x1', 'latest', [25, 75]]);
    expect(history.reward).to.deep.equal([['0x0', '0x0']]);
  });

  it('a count reaching past genesis starts at block 0', async () => {
    const history = await node.call('eth_feeHistory', ['0x400', 'latest', []]);
    const head = BigInt(await node.call('eth_blockNumber', []));
    expect(history.oldestBlock).to.equal('0x0');
    expect(history.gasUsedRatio).to.have.length(Number(head) + 1);
  });

  it('every base fee is non-zero', async () => {
    const history = await node.call('eth_feeHistory', ['0x400', 'latest', []]);
    for (const fee of history.baseFeePerGas) expect(BigInt(fee) > 0n).to.equal(true);
  });

  it('rejects percentiles out of order or out of range: -32602', async () => {
    await expectRpcError(node.call('eth_feeHistory', ['0x1', 'latest', [50, 10]]), -32602, /percentile/i);
    await expectRpcError(node.call('eth_feeHistory', ['0x1', 'latest', [101]]), -32602, /percentile/i);
  });

  it('a newest block the chain does not have: -32000', async () => {
    await expectRpcError(node.call('eth_feeHistory', ['0x1', '0x1000', []]), -32000, /not found/);
  });
});
