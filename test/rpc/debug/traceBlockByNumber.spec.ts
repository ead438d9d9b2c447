import { expect } from 'chai';
import type { Hex } from 'viem';
import type { CallFrame } from '../../../generated/types.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { deployTraced, encode, sendInOneBlock, type Deployed } from '../../helpers/tracing.js';
import { expectRpcError } from '../../helpers/transactions.js';

describe('debug_traceBlockByNumber', () => {
  let node: TestNode;
  let c: Deployed;
  let hashes: Hex[];
  let number: string;

  before(async () => {
    node = await startTestNode({ mining: false });
    c = await deployTraced(node);
    hashes = await sendInOneBlock(node, 1, [
      { to: c.storage, data: encode('Storage', 'set', [1n]) },
      { to: c.relay, data: encode('Relay', 'attempt', [c.reverter, encode('Reverter', 'failWithReason')]) },
      { to: c.emitter, data: encode('Emitter', 'emitMany', [3n]) },
    ]);
    number = (await node.call('eth_getTransactionReceipt', [hashes[0]]))!.blockNumber;
  });
  after(() => node.destroy());

  it('one entry per transaction, in block order, each as debug_traceTransaction traces it', async () => {
    const traces = await node.call('debug_traceBlockByNumber', [number]);
    expect(traces.map((t) => t.txHash)).to.deep.equal(hashes);
    for (const [i, hash] of hashes.entries()) expect(traces[i].result).to.deep.equal(await node.call('debug_traceTransaction', [hash]));
  });

  it('with a tracer: each transaction\'s result in its shape', async () => {
    const traces = await node.call('debug_traceBlockByNumber', [number, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
    const frames = traces.map((t) => t.result as CallFrame);
    expect(frames.map((f) => f.to)).to.deep.equal([c.storage, c.relay, c.emitter]);
    // Log indexes run across the block, as the receipts number them.
    const receipt = (await node.call('eth_getTransactionReceipt', [hashes[2]]))!;
    expect(frames[2].logs!.map((l) => l.index)).to.deep.equal(receipt.logs.map((l) => l.logIndex));
  });

  it('takes a tag', async () => {
    expect(await node.call('debug_traceBlockByNumber', ['latest', { tracer: 'callTracer' }])).to.deep.equal(await node.call('debug_traceBlockByNumber', [number, { tracer: 'callTracer' }]));
  });

  it('a block without transactions: []', async () => {
    await node.call('evm_mine', []);
    expect(await node.call('debug_traceBlockByNumber', ['latest'])).to.deep.equal([]);
  });

  it('refuses the genesis block, which has no parent state: -32000', async () => {
    await expectRpcError(node.call('debug_traceBlockByNumber', ['0x0']), -32000, 'genesis is not traceable');
  });

  it('a block beyond the head: -32000 naming it', async () => {
    await expectRpcError(node.call('debug_traceBlockByNumber', ['0xffff']), -32000, 'block #65535 not found');
  });

  it('refuses the pending block, which has not run: -32000', async () => {
    await expectRpcError(node.call('debug_traceBlockByNumber', ['pending']), -32000, /pending/);
  });
});
