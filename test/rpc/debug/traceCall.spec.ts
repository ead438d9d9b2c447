import { expect } from 'chai';
import type { CallFrame, PrestateDiff, StructTrace } from '../../../generated/types.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { deployTraced, encode, sendInOneBlock, type Deployed } from '../../helpers/tracing.js';
import { devAddress, expectRpcError, GWEI, SINK } from '../../helpers/transactions.js';

const word = (n: bigint | number) => `0x${n.toString(16).padStart(64, '0')}`;
/** NUMBER, then returns it as a word. */
const RETURNS_NUMBER = '0x4360005260206000f3';
const PROBE = '0x00000000000000000000000000000000000c0de1';

describe('debug_traceCall', () => {
  let node: TestNode;
  let c: Deployed;
  let block: string;

  before(async () => {
    node = await startTestNode({ mining: false });
    c = await deployTraced(node);
    const [first] = await sendInOneBlock(node, 1, [
      { to: c.storage, data: encode('Storage', 'set', [7n]) },
      { to: c.storage, data: encode('Storage', 'set', [9n]) },
    ]);
    block = (await node.call('eth_getTransactionReceipt', [first]))!.blockNumber;
  });
  after(() => node.destroy());

  it('traces a call with the tracer asked for, as a transaction would run', async () => {
    const trace = (await node.call('debug_traceCall', [{ from: devAddress(0), to: SINK, value: '0x1' }, 'latest', { tracer: 'callTracer' }])) as CallFrame;
    expect(trace).to.deep.equal({ from: devAddress(0), gas: '0x1000000', gasUsed: '0x5208', to: SINK, input: '0x', value: '0x1', type: 'CALL' });
  });

  it('defaults to the struct logger, on the latest state', async () => {
    const trace = (await node.call('debug_traceCall', [{ to: c.storage, data: encode('Storage', 'get') }])) as StructTrace;
    expect(trace.failed).to.equal(false);
    expect(trace.returnValue).to.equal(word(9));
    expect(trace.structLogs.some((s) => s.op === 'SLOAD')).to.equal(true);
  });

  it('runs on the state before a transaction of the block with txIndex', async () => {
    const before = (await node.call('debug_traceCall', [{ to: c.storage, data: encode('Storage', 'get') }, block, { txIndex: '0x1' }])) as StructTrace;
    expect(before.returnValue).to.equal(word(7));
    await expectRpcError(node.call('debug_traceCall', [{ to: c.storage, data: encode('Storage', 'get') }, block, { txIndex: '0x2' }]), -32000, /out of range/);
  });

  it('applies state overrides: code and storage the chain does not hold', async () => {
    const trace = (await node.call('debug_traceCall', [{ to: c.storage, data: encode('Storage', 'get') }, 'latest', { stateOverrides: { [c.storage]: { stateDiff: { [word(0)]: word(42) } } } }])) as StructTrace;
    expect(trace.returnValue).to.equal(word(42));
    const probe = (await node.call('debug_traceCall', [{ to: PROBE }, 'latest', { stateOverrides: { [PROBE]: { code: RETURNS_NUMBER } } }])) as StructTrace;
    expect(probe.structLogs.map((s) => s.op)).to.deep.equal(['NUMBER', 'PUSH1', 'MSTORE', 'PUSH1', 'PUSH1', 'RETURN']);
  });

  it('applies block overrides: the block context the call sees', async () => {
    const trace = (await node.call('debug_traceCall', [{ to: PROBE }, 'latest', { stateOverrides: { [PROBE]: { code: RETURNS_NUMBER } }, blockOverrides: { number: '0x1234' } }])) as StructTrace;
    expect(trace.returnValue).to.equal(word(0x1234));
  });

  it('charges the sender for gas at its price, as a transaction pays', async () => {
    const { pre, post } = (await node.call('debug_traceCall', [
      { from: devAddress(5), to: SINK, value: '0x0', maxFeePerGas: `0x${(10n * GWEI).toString(16)}`, maxPriorityFeePerGas: '0x0' },
      'latest',
      { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
    ])) as PrestateDiff;
    const baseFee = BigInt((await node.call('eth_getBlockByNumber', ['latest', false]))!.baseFeePerGas!);
    expect(BigInt(pre[devAddress(5)].balance!) - BigInt(post[devAddress(5)].balance!)).to.equal(21000n * baseFee);
  });

  it('a sender that cannot pay: -32000 tracing failed', async () => {
    const poor = '0x2222222222222222222222222222222222222222';
    await expectRpcError(node.call('debug_traceCall', [{ from: poor, to: SINK, value: '0x1' }, 'latest']), -32000, /^tracing failed: insufficient funds for gas \* price \+ value/);
  });

  it('refuses the pending block, as geth does: -32000', async () => {
    await expectRpcError(node.call('debug_traceCall', [{ to: SINK }, 'pending']), -32000, 'tracing on top of pending is not supported');
  });

  it('an unknown block: -32000 header not found', async () => {
    await expectRpcError(node.call('debug_traceCall', [{ to: SINK }, '0xffff']), -32000, 'header not found');
  });

  it('changes nothing: the state stays as the chain holds it', async () => {
    await node.call('debug_traceCall', [{ from: devAddress(0), to: c.storage, data: encode('Storage', 'set', [1n]) }, 'latest']);
    expect(await node.call('eth_call', [{ to: c.storage, data: encode('Storage', 'get') }, 'latest'])).to.equal(word(9));
  });
});
