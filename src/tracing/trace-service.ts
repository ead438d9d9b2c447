import type { Block } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import type { BlockTraceEntry, TraceCallConfig, TraceConfig, TransactionCall, TransactionTrace } from '../../generated/types.js';
import { AnswerTooLarge } from '../format/answer-budget.js';
import type { Executor } from '../state/execution.js';
import type { CallOverrides } from '../state/overrides.js';
import { TraceError } from './errors.js';
import { TraceTimeoutError } from './evm-hooks.js';
import { Replayer, runTraced, tracedTransaction, type ReplayChain, type TraceLimits } from './replay.js';
import { createTracer, traceBudget, traceTimeoutMs } from './tracers.js';

/** What tracing reads of the chain, beyond what a replay does. */
export interface TracingChain extends ReplayChain {
  /** The canonical block holding a transaction, and its index there. */
  findTransaction(hash: Uint8Array): Promise<{ block: Block; index: number } | undefined>;
}

/** What the operator bounds every trace by, whatever its config asks. */
export interface TracingBounds {
  /** bytes of JSON one answer may hold (--max-response-bytes) */
  maxAnswerBytes: number;
  /** how long one transaction's trace may run (--trace-max-timeout) */
  maxTimeoutMs: number;
}

/** One entry of debug_traceBlock*'s answer beside its trace, {"txHash":"0x…","result":…}, with the comma after it. */
const BLOCK_ENTRY_BYTES = 90;

/** debug_trace*: mined transactions replayed, or a call run, with a tracer listening. */
export class TraceService {
  private readonly replayer: Replayer;

  constructor(
    private readonly chain: TracingChain,
    private readonly executor: Executor,
    private readonly bounds: TracingBounds,
  ) {
    this.replayer = new Replayer(chain);
  }

  async traceTransaction(hash: Uint8Array, config: TraceConfig = {}): Promise<TransactionTrace> {
    createTracer(config); // refuses a bad configuration before any replay
    const found = await this.chain.findTransaction(hash);
    if (found === undefined) throw new TraceError('transaction not found');
    const limits = this.limits(config);
    return (await this.bounded(config, () => this.replayer.traceOne(found.block, found.index, createTracer(config, limits.budget), limits))) as TransactionTrace;
  }

  /**
   * Runs `request` on `block`'s state — or, with txIndex, on the state that transaction of the block
   * ran on — with the overrides in `config`, and traces it. The call is charged for its gas as a
   * transaction would be; it runs on a VM of its own, thrown away after.
   */
  async traceCall(request: TransactionCall, block: Block, config: TraceCallConfig = {}): Promise<TransactionTrace> {
    const limits = this.limits(config);
    const tracer = createTracer(config, limits.budget);
    const vm = config.txIndex === undefined ? undefined : await this.replayer.before(block, Number(BigInt(config.txIndex)));
    const overrides: CallOverrides = { state: config.stateOverrides, block: config.blockOverrides, vm };
    const run = await this.executor.prepare(request, this.executor.target(block, overrides), overrides);
    let traced: unknown;
    let stopped: unknown;
    const outcome = await run(undefined, async (on, execute, tx, context) => {
      try {
        const from = tx.getSenderAddress();
        const deadline = Date.now() + limits.timeoutMs;
        const result = await runTraced(on, execute, tracedTransaction(tx, from, context, on.common), tracer, { deadline, budget: limits.budget });
        traced = result.result;
        return result.run;
      } catch (error) {
        if (error instanceof TraceTimeoutError || error instanceof AnswerTooLarge) stopped = error;
        throw error;
      }
    });
    // A VM stopped mid-run may hold the EVM's unfinished checkpoints: it is dropped, not handed back.
    if (stopped !== undefined) throw this.reported(stopped, config);
    run.release();
    if (outcome.invalid !== undefined) throw new TraceError(`tracing failed: ${outcome.invalid}`);
    return traced as TransactionTrace;
  }

  async traceBlock(block: Block, config: TraceConfig = {}): Promise<BlockTraceEntry[]> {
    createTracer(config);
    const limits = this.limits(config);
    const { budget } = limits;
    // [entry,entry]: the last entry has no comma after it, the array's brackets take its place and one more.
    budget.add(block.transactions.length === 0 ? 2 : 1 + BLOCK_ENTRY_BYTES * block.transactions.length);
    const traced = await this.bounded(config, () => this.replayer.replay(block, () => createTracer(config, budget), limits));
    budget.check();
    return traced.map(({ index, result }) => ({ txHash: bytesToHex(block.transactions[index].hash()), result: result as TransactionTrace }));
  }

  /** The time each traced transaction has, and the budget of the answer's bytes, for `config`. */
  private limits(config: TraceConfig): Required<TraceLimits> {
    return { timeoutMs: traceTimeoutMs(config, this.bounds.maxTimeoutMs).ms, budget: traceBudget(config, this.bounds.maxAnswerBytes) };
  }

  /** Runs `trace`, its failure as {@link reported}. */
  private async bounded<T>(config: TraceConfig, trace: () => Promise<T>): Promise<T> {
    try {
      return await trace();
    } catch (error) {
      throw this.reported(error, config);
    }
  }

  /** `error` as the caller hears it: a timeout the node's ceiling cut short (not the caller's own) says so. */
  private reported(error: unknown, config: TraceConfig): unknown {
    if (!(error instanceof TraceTimeoutError) || !traceTimeoutMs(config, this.bounds.maxTimeoutMs).capped) return error;
    return new TraceTimeoutError(`a trace runs at most ${this.bounds.maxTimeoutMs / 1000} s on this node (--trace-max-timeout)`);
  }
}
