import { expect } from 'chai';
import { encodeErrorResult, type Hex } from 'viem';
import type { CallFrame, PrestateDiff, PrestateTrace, StructTrace } from '../../../generated/types.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { deployTraced, encode, sendInOneBlock, type Deployed } from '../../helpers/tracing.js';
import { devAddress, devKey, expectRpcError, signTx, SINK, txHash } from '../../helpers/transactions.js';

const REASON = 'Reverter: no luck';
const reasonData = encodeErrorResult({ abi: [{ type: 'error', name: 'Error', inputs: [{ type: 'string', name: 'message' }] }], errorName: 'Error', args: [REASON] });
const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe('debug_traceTransaction', () => {
  let node: TestNode;
  let c: Deployed;
  let transfer: Hex;
  let nestedRevert: Hex;
  let caughtRevert: Hex;
  let firstSet: Hex;
  let secondSet: Hex;
  let heavy: Hex;

  before(async () => {
    node = await startTestNode({ mining: false });
    c = await deployTraced(node);
    const raw = await signTx({ key: devKey(1), nonce: 0, to: SINK, value: 5n });
    await node.call('eth_sendRawTransaction', [raw]);
    transfer = txHash(raw);
    [nestedRevert, caughtRevert] = await sendInOneBlock(node, 2, [
      { to: c.relay, data: encode('Relay', 'forward', [c.reverter, encode('Reverter', 'failWithReason')]) },
      { to: c.relay, data: encode('Relay', 'attempt', [c.reverter, encode('Reverter', 'failWithReason')]) },
    ]);
    // Two writes to one slot in one block: the second's trace must see the first's value.
    [firstSet, secondSet] = await sendInOneBlock(node, 3, [
      { to: c.storage, data: encode('Storage', 'set', [7n]) },
      { to: c.storage, data: encode('Storage', 'set', [9n]) },
    ]);
    [heavy] = await sendInOneBlock(node, 4, [{ to: c.reverter, data: encode('Reverter', 'needsGas', [600n]), gas: 5_000_000n }]);
  });
  after(() => node.destroy());

  it('a transfer runs no code: an empty struct log with the gas it paid', async () => {
    expect(await node.call('debug_traceTransaction', [transfer])).to.deep.equal({ gas: 21000, failed: false, returnValue: '0x', structLogs: [] });
  });

  it('logs every opcode with the gas before it and its cost, from depth 1', async () => {
    const trace = (await node.call('debug_traceTransaction', [firstSet])) as StructTrace;
    const receipt = (await node.call('eth_getTransactionReceipt', [firstSet]))!;
    expect(trace.gas).to.equal(Number(BigInt(receipt.gasUsed)));
    expect(trace.failed).to.equal(false);
    expect(trace.structLogs[0]).to.include({ pc: 0, depth: 1 });
    for (let i = 0; i + 1 < trace.structLogs.length; i++) {
      const [step, next] = [trace.structLogs[i], trace.structLogs[i + 1]];
      expect(next.gas, `gas after ${step.op} at pc ${step.pc}`).to.equal(step.gas - step.gasCost);
    }
    expect(trace.structLogs.at(-1)!.op).to.be.oneOf(['STOP', 'RETURN']);
  });

  it('shows at SSTORE the slots written so far, and replays the block\'s earlier transactions first', async () => {
    const first = (await node.call('debug_traceTransaction', [firstSet])) as StructTrace;
    const second = (await node.call('debug_traceTransaction', [secondSet])) as StructTrace;
    const valueWrite = (trace: StructTrace) => trace.structLogs.find((s) => s.op === 'SSTORE' && s.storage?.[slot(0)] !== undefined)!;
    expect(valueWrite(first).storage![slot(0)]).to.equal(slot(7));
    expect(valueWrite(second).storage![slot(0)]).to.equal(slot(9));
    // The second transaction read the first's value before overwriting it.
    const read = second.structLogs.find((s) => s.op === 'SLOAD' && s.storage?.[slot(0)] !== undefined)!;
    expect(read.storage![slot(0)]).to.equal(slot(7));
  });

  it('leaves out the stack and storage when asked, adds memory and return data when asked', async () => {
    const bare = (await node.call('debug_traceTransaction', [firstSet, { disableStack: true, disableStorage: true }])) as StructTrace;
    expect(bare.structLogs.every((s) => s.stack === undefined && s.storage === undefined && s.memory === undefined)).to.equal(true);
    const full = (await node.call('debug_traceTransaction', [nestedRevert, { enableMemory: true, enableReturnData: true }])) as StructTrace;
    expect(full.structLogs.some((s) => s.memory !== undefined && s.memory.every((w) => w.length === 66))).to.equal(true);
    // After the inner call reverts, the relay sees its revert data in the return data buffer.
    expect(full.structLogs.some((s) => s.depth === 1 && s.returnData === reasonData)).to.equal(true);
  });

  it('stops logging once the logged JSON passes `limit` bytes', async () => {
    const all = (await node.call('debug_traceTransaction', [firstSet])) as StructTrace;
    const limited = (await node.call('debug_traceTransaction', [firstSet, { limit: 200 }])) as StructTrace;
    expect(limited.structLogs.length).to.be.greaterThan(0).and.lessThan(all.structLogs.length);
    expect(limited.structLogs).to.deep.equal(all.structLogs.slice(0, limited.structLogs.length));
  });

  it('a reverted transaction: failed, with the revert data as its return value', async () => {
    const trace = (await node.call('debug_traceTransaction', [nestedRevert])) as StructTrace;
    expect(trace.failed).to.equal(true);
    expect(trace.returnValue).to.equal(reasonData);
    expect(trace.structLogs.some((s) => s.depth === 2)).to.equal(true);
  });

  it('callTracer: a nested revert names the frame it came from and its reason', async () => {
    const trace = (await node.call('debug_traceTransaction', [nestedRevert, { tracer: 'callTracer' }])) as CallFrame;
    expect(trace).to.include({ type: 'CALL', from: devAddress(2), to: c.relay, error: 'execution reverted', revertReason: REASON, output: reasonData });
    expect(trace.calls).to.have.length(1);
    expect(trace.calls![0]).to.include({ type: 'CALL', from: c.relay, to: c.reverter, input: encode('Reverter', 'failWithReason'), error: 'execution reverted', revertReason: REASON, output: reasonData });
  });

  it('callTracer: a caught revert fails only its frame; withLog shows the logs that stayed, with their position', async () => {
    const trace = (await node.call('debug_traceTransaction', [caughtRevert, { tracer: 'callTracer', tracerConfig: { withLog: true } }])) as CallFrame;
    expect(trace.error).to.equal(undefined);
    expect(trace.calls![0]).to.include({ to: c.reverter, error: 'execution reverted', revertReason: REASON });
    expect(trace.logs).to.have.length(1);
    expect(trace.logs![0]).to.include({ address: c.relay, position: '0x1' });
    const receipt = (await node.call('eth_getTransactionReceipt', [caughtRevert]))!;
    expect(trace.logs![0].index).to.equal(receipt.logs[0].logIndex);
  });

  it('callTracer onlyTopCall: the transaction\'s own frame alone', async () => {
    const trace = (await node.call('debug_traceTransaction', [caughtRevert, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }])) as CallFrame;
    expect(trace.calls).to.equal(undefined);
    expect(trace.to).to.equal(c.relay);
  });

  it('prestateTracer: the accounts and slots touched, as they were before', async () => {
    const trace = (await node.call('debug_traceTransaction', [secondSet, { tracer: 'prestateTracer' }])) as PrestateTrace;
    expect(Object.keys(trace)).to.include.members([devAddress(3), c.storage]);
    expect(trace[c.storage].storage![slot(0)]).to.equal(slot(7));
    expect(trace[devAddress(3)].nonce).to.equal(1);
  });

  it('prestateTracer diffMode: what changed, before and after', async () => {
    const { pre, post } = (await node.call('debug_traceTransaction', [secondSet, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])) as PrestateDiff;
    expect(pre[c.storage].storage![slot(0)]).to.equal(slot(7));
    expect(post[c.storage].storage![slot(0)]).to.equal(slot(9));
    expect(post[devAddress(3)].nonce).to.equal(2);
  });

  it('refuses diffMode with includeEmpty, as geth does', async () => {
    await expectRpcError(node.call('debug_traceTransaction', [transfer, { tracer: 'prestateTracer', tracerConfig: { diffMode: true, includeEmpty: true } }]), -32000, 'cannot use diffMode with includeEmpty');
  });

  it('gives up past its timeout: -32000 execution timeout', async () => {
    await expectRpcError(node.call('debug_traceTransaction', [heavy, { timeout: '1ms' }]), -32000, 'execution timeout');
    expect(((await node.call('debug_traceTransaction', [heavy, { tracer: 'callTracer', timeout: '30s' }])) as CallFrame).to).to.equal(c.reverter);
  });

  it('an unknown transaction: -32000 transaction not found', async () => {
    await expectRpcError(node.call('debug_traceTransaction', [`0x${'ab'.repeat(32)}`]), -32000, 'transaction not found');
  });

  it('an unknown tracer: -32602', async () => {
    await expectRpcError(node.call('debug_traceTransaction', [transfer, { tracer: 'noSuchTracer' } as never]), -32602, /tracer/);
  });

  it('traced again, reads none of its block\'s transaction records: the replay up to it is kept with its senders', async () => {
    await node.call('debug_traceTransaction', [secondSet]);
    const { blocks } = node.node.services.chain;
    const records = blocks.records.bind(blocks);
    let reads = 0;
    blocks.records = (block) => {
      reads++;
      return records(block);
    };
    try {
      const again = (await node.call('debug_traceTransaction', [secondSet])) as StructTrace;
      expect(again.failed).to.equal(false);
      expect(reads).to.equal(0);
    } finally {
      blocks.records = records;
    }
  });

  it('changes nothing: the head and its state stay as they were', async () => {
    const head = await node.call('eth_getBlockByNumber', ['latest', false]);
    await node.call('debug_traceTransaction', [secondSet, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    expect(await node.call('eth_getBlockByNumber', ['latest', false])).to.deep.equal(head);
    expect(await node.call('eth_call', [{ to: c.storage, data: encode('Storage', 'get') }, 'latest'])).to.equal(slot(9));
  });
});
