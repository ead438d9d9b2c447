// Traces within the node's bounds, whatever their config asks: the answer's JSON within
// --max-response-bytes, counted while the trace is built (the EVM stops as soon as it passes), and
// each transaction's time within --trace-max-timeout.
import { expect } from 'chai';
import type { Hex } from 'viem';
import type { BlockTraceEntry, StructTrace } from '../../../generated/types.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { deployTraced, encode, sendInOneBlock } from '../../helpers/tracing.js';
import { expectRpcError, SINK } from '../../helpers/transactions.js';

/** MSTORE at 1 MiB - 32, then MLOAD in a loop until the gas runs out: every opcode sees a megabyte of memory. */
const MEMORY_LOOP = '0x6001620fffe0525b60005150600756';
/** JUMPDEST, PUSH1 0, JUMP: a loop until the gas runs out. */
const LOOP = '0x5b600056';
const PROBE = '0x00000000000000000000000000000000000c0de2';
const ALL_OF_IT = { enableMemory: true, enableReturnData: true };
const jsonBytes = (value: unknown) => JSON.stringify(value).length;

describe('traces within the node’s byte budget and time ceiling', function () {
  this.timeout(120_000);

  describe('the budget counts a struct trace to the byte', () => {
    let node: TestNode;
    let dir: string;
    let block: string;
    let hashes: Hex[];

    before(async () => {
      node = await startTestNode({ mining: false });
      dir = node.dataDir;
      const c = await deployTraced(node);
      // Storage (stack, memory, storage, a refund), a revert seen through the return data buffer, and an opcode that cannot pay (an error).
      hashes = await sendInOneBlock(node, 1, [
        { to: c.storage, data: encode('Storage', 'set', [5n]) },
        { to: c.storage, data: encode('Storage', 'set', [0n]) },
        { to: c.relay, data: encode('Relay', 'attempt', [c.reverter, encode('Reverter', 'failWithReason')]) },
        { to: c.storage, data: encode('Storage', 'set', [6n]), gas: 23_000n },
      ]);
      block = (await node.call('eth_getTransactionReceipt', [hashes[0]]))!.blockNumber;
    });
    after(() => node.destroy());

    /** The node again on the same chain, with answers limited to `bytes`. */
    const restartWith = async (bytes: number) => {
      await node.stop();
      node = await startTestNode({ mining: false, maxResponseBytes: bytes }, dir);
    };

    it('a transaction’s: a budget of exactly its JSON answers it, one byte less is -32003 naming the limit', async () => {
      const trace = (await node.call('debug_traceTransaction', [hashes[2], ALL_OF_IT])) as StructTrace;
      expect(trace.structLogs.some((s) => s.returnData !== undefined) && trace.structLogs.some((s) => s.memory !== undefined)).to.equal(true);
      const size = jsonBytes(trace);
      await restartWith(size);
      expect(await node.call('debug_traceTransaction', [hashes[2], ALL_OF_IT])).to.deep.equal(trace);
      await restartWith(size - 1);
      const refused = await expectRpcError(
        node.call('debug_traceTransaction', [hashes[2], ALL_OF_IT]),
        -32003,
        `response too large: the struct trace passed ${size - 1} bytes of JSON, this node's --max-response-bytes; trace fewer opcodes (limit) or less of each (disableStack, disableStorage, no enableMemory), or use callTracer`,
      );
      expect(refused.data).to.deep.equal({ limit: size - 1 });
    });

    it('a block’s, its transactions’ traces together (a refund and an opcode that could not pay among them)', async () => {
      await restartWith(2 ** 27);
      const traces = (await node.call('debug_traceBlockByNumber', [block, ALL_OF_IT])) as BlockTraceEntry[];
      const logs = traces.flatMap((entry) => (entry.result as StructTrace).structLogs);
      expect(logs.some((s) => s.storage !== undefined) && logs.some((s) => s.refund !== undefined) && logs.some((s) => s.error !== undefined)).to.equal(true);
      const size = jsonBytes(traces);
      await restartWith(size);
      expect(await node.call('debug_traceBlockByNumber', [block, ALL_OF_IT])).to.deep.equal(traces);
      await restartWith(size - 1);
      await expectRpcError(node.call('debug_traceBlockByNumber', [block, ALL_OF_IT]), -32003, /^response too large: the struct trace passed \d+ bytes of JSON/);
    });
  });

  describe('past the budget', () => {
    let node: TestNode;

    before(async () => {
      node = await startTestNode({ maxResponseBytes: 8 * 1024 * 1024 });
    });
    after(() => node.destroy());

    it('a loop over a megabyte of memory, traced with memory for up to a minute, stops at the budget: -32003, and the node goes on', async () => {
      const started = performance.now();
      await expectRpcError(
        node.call('debug_traceCall', [{ to: PROBE, gas: '0x2dc6c0' }, 'latest', { stateOverrides: { [PROBE]: { code: MEMORY_LOOP } }, enableMemory: true, timeout: '60s' }]),
        -32003,
        /^response too large: the struct trace passed 8388608 bytes of JSON/,
      );
      // Stopped by the budget, not by the minute the trace was given.
      expect(performance.now() - started).to.be.below(60_000);
      const hash = await node.call('eth_sendTransaction', [{ from: (await node.call('eth_accounts', []))[0], to: SINK, value: '0x1' }]);
      expect((await node.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x1');
    });

    it('a mined transaction’s trace, likewise', async () => {
      const [from] = await node.call('eth_accounts', []);
      const hash = await node.call('eth_sendTransaction', [{ from, data: MEMORY_LOOP, gas: '0x2dc6c0' }]);
      await expectRpcError(node.call('debug_traceTransaction', [hash, { enableMemory: true }]), -32003, /^response too large: the struct trace passed 8388608 bytes/);
    });
  });

  describe('the other tracers and the time ceiling', () => {
    let node: TestNode;

    before(async () => {
      node = await startTestNode({ maxResponseBytes: 4096, traceMaxTimeoutMs: 1_000 });
    });
    after(() => node.destroy());

    it('callTracer counts its frames’ input and output: a call with 4 KB of input is past 4,096 bytes', async () => {
      await expectRpcError(
        node.call('debug_traceCall', [{ to: SINK, input: `0x${'ab'.repeat(4096)}` }, 'latest', { tracer: 'callTracer' }]),
        -32003,
        "response too large: the callTracer trace passed 4096 bytes of JSON, this node's --max-response-bytes",
      );
      expect(await node.call('debug_traceCall', [{ to: SINK, input: '0xab' }, 'latest', { tracer: 'callTracer' }])).to.include({ input: '0xab' });
    });

    it('prestateTracer counts the code it reports: an account with 4 KB of code is past 4,096 bytes', async () => {
      const code = `0x00${'5b'.repeat(4095)}`;
      await expectRpcError(
        node.call('debug_traceCall', [{ to: PROBE }, 'latest', { tracer: 'prestateTracer', stateOverrides: { [PROBE]: { code } } }]),
        -32003,
        /^response too large: the prestateTracer trace passed 4096 bytes/,
      );
    });

    it('a timeout past --trace-max-timeout is cut to it, and the error says so', async () => {
      const started = performance.now();
      await expectRpcError(
        node.call('debug_traceCall', [{ to: PROBE, gas: '0xffffff' }, 'latest', { tracer: 'callTracer', timeout: '60s', stateOverrides: { [PROBE]: { code: LOOP } } }]),
        -32000,
        'execution timeout: a trace runs at most 1 s on this node (--trace-max-timeout)',
      );
      expect(performance.now() - started).to.be.below(30_000);
    });

    it('a timeout within it is the caller’s own: geth’s words', async () => {
      await expectRpcError(
        node.call('debug_traceCall', [{ to: PROBE, gas: '0xffffff' }, 'latest', { tracer: 'callTracer', timeout: '300ms', stateOverrides: { [PROBE]: { code: LOOP } } }]),
        -32000,
        'execution timeout',
      );
    });
  });
});
