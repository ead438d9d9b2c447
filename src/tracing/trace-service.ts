import type { Block } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import type { BlockTraceEntry, TraceCallConfig, TraceConfig, TransactionCall, TransactionTrace } from '../../generated/types.js';
import type { Executor } from '../state/execution.js';
import type { CallOverrides } from '../state/overrides.js';
import { TraceError } from './errors.js';
import { TraceTimeoutError } from './evm-hooks.js';
import { Replayer, runTraced, tracedTransaction, type ReplayChain } from './replay.js';
import { createTracer, traceTimeoutMs } from './tracers.js';

/** What tracing reads of the chain, beyond what a replay does. */
export interface TracingChain extends ReplayChain {
  /** The canonical block holding a transaction, and its index there. */
  findTransaction(hash: Uint8Array): Promise<{ block: Block; index: number } | undefined>;
}

/** debug_trace*: mined transactions replayed, or a call run, with a tracer listening. */
export class TraceService {
  private readonly replayer: Replayer;

  constructor(
    private readonly chain: TracingChain,
    private readonly executor: Executor,
  ) {
    this.replayer = new Replayer(chain);
  }

  async traceTransaction(hash: Uint8Array, config: TraceConfig = {}): Promise<TransactionTrace> {
    createTracer(config); // refuses a bad configuration before any replay
    const found = await this.chain.findTransaction(hash);
    if (found === undefined) throw new TraceError('transaction not found');
    return (await this.replayer.traceOne(found.block, found.index, createTracer(config), traceTimeoutMs(config))) as TransactionTrace;
  }

  /**
   * Runs `request` on `block`'s state — or, with txIndex, on the state that transaction of the block
   * ran on — with the overrides in `config`, and traces it. The call is charged for its gas as a
   * transaction would be; it runs on a VM of its own, thrown away after.
   */
  async traceCall(request: TransactionCall, block: Block, config: TraceCallConfig = {}): Promise<TransactionTrace> {
    const tracer = createTracer(config);
    const vm = config.txIndex === undefined ? undefined : await this.replayer.before(block, Number(BigInt(config.txIndex)));
    const overrides: CallOverrides = { state: config.stateOverrides, block: config.blockOverrides, vm };
    const run = await this.executor.prepare(request, this.executor.target(block, overrides), overrides);
    let traced: unknown;
    let timedOut = false;
    const outcome = await run(undefined, async (on, execute, tx, context) => {
      try {
        const from = tx.getSenderAddress();
        const result = await runTraced(on, execute, tracedTransaction(tx, from, context, on.common), tracer, { deadline: Date.now() + traceTimeoutMs(config) });
        traced = result.result;
        return result.run;
      } catch (error) {
        timedOut = error instanceof TraceTimeoutError;
        throw error;
      }
    });
    run.release();
    if (timedOut) throw new TraceTimeoutError();
    if (outcome.invalid !== undefined) throw new TraceError(`tracing failed: ${outcome.invalid}`);
    return traced as TransactionTrace;
  }

  async traceBlock(block: Block, config: TraceConfig = {}): Promise<BlockTraceEntry[]> {
    createTracer(config);
    const traced = await this.replayer.replay(block, () => createTracer(config), traceTimeoutMs(config));
    return traced.map(({ index, result }) => ({ txHash: bytesToHex(block.transactions[index].hash()), result: result as TransactionTrace }));
  }
}
