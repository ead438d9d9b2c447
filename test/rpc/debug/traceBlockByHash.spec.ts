import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { deployTraced, encode, sendInOneBlock } from '../../helpers/tracing.js';
import { expectRpcError } from '../../helpers/transactions.js';

describe('debug_traceBlockByHash', () => {
  let node: TestNode;
  let block: { hash: string; number: string };

  before(async () => {
    node = await startTestNode({ mining: false });
    const c = await deployTraced(node);
    const [hash] = await sendInOneBlock(node, 1, [
      { to: c.storage, data: encode('Storage', 'set', [1n]) },
      { to: c.emitter, data: encode('Emitter', 'emitMany', [2n]) },
    ]);
    const receipt = (await node.call('eth_getTransactionReceipt', [hash]))!;
    block = { hash: receipt.blockHash, number: receipt.blockNumber };
  });
  after(() => node.destroy());

  it('traces the block with that hash, as debug_traceBlockByNumber does', async () => {
    const traces = await node.call('debug_traceBlockByHash', [block.hash, { tracer: 'prestateTracer' }]);
    expect(traces).to.have.length(2);
    expect(traces).to.deep.equal(await node.call('debug_traceBlockByNumber', [block.number, { tracer: 'prestateTracer' }]));
  });

  it('an unknown hash: -32000 naming it', async () => {
    const unknown = `0x${'01'.padStart(64, '0')}`;
    await expectRpcError(node.call('debug_traceBlockByHash', [unknown]), -32000, `block ${unknown} not found`);
  });

  it('refuses the genesis block: -32000', async () => {
    const genesis = (await node.call('eth_getBlockByNumber', ['0x0', false]))!;
    await expectRpcError(node.call('debug_traceBlockByHash', [genesis.hash]), -32000, 'genesis is not traceable');
  });
});
