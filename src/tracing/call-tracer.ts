// geth's callTracer: the tree of call frames a transaction opened, each with its gas, input, output
// and, when it failed, the error and the revert reason — in geth's JSON, member for member.
import { bytesToHex } from '@ethereumjs/util';
import type { CallFrame, CallFrameLog, TracerConfig } from '../../generated/types.js';
import { toHex } from '../codec/hex.js';
import { AnswerBudget } from '../format/answer-budget.js';
import { revertReason } from '../state/revert.js';
import type { EmittedLog, FrameEnd, FrameStart, FrameType, TraceHooks } from './trace-hooks.js';
import type { TracedOutcome, TracedTransaction, TxTracer } from './tracer.js';

interface OpenFrame {
  type: FrameType;
  from: string;
  gas: bigint;
  gasUsed: bigint;
  to?: string;
  input: Uint8Array;
  output?: Uint8Array;
  error?: string;
  revertReason?: string;
  calls: OpenFrame[];
  logs: CallFrameLog[];
  value?: bigint;
  /** failed and its changes undone: its logs never happened */
  reverted: boolean;
}

const quantity = (value: bigint | number) => `0x${value.toString(16)}`;
/** A frame's JSON beside its input and output (addresses, gas, value, type), and a log's beside its data, in bytes at most. */
const FRAME_BYTES = 250;
const LOG_BYTES = 170;

function openFrame(start: FrameStart): OpenFrame {
  return {
    type: start.type,
    from: start.from.toString(),
    to: start.to.toString(),
    input: start.input,
    gas: start.gas,
    gasUsed: 0n,
    value: start.value,
    calls: [],
    logs: [],
    reverted: false,
  };
}

/** geth's processOutput: the output, or the error with the revert data and its reason. */
function close(frame: OpenFrame, end: FrameEnd): void {
  frame.gasUsed = end.gasUsed;
  if (end.error === undefined || !end.reverted) {
    frame.output = end.output;
    return;
  }
  frame.error = end.error;
  frame.reverted = end.reverted;
  if (frame.type === 'CREATE' || frame.type === 'CREATE2') frame.to = undefined;
  if (end.error !== 'execution reverted' || end.output.length === 0) return;
  frame.output = end.output;
  frame.revertReason = end.output.length >= 4 ? revertReason(end.output) : undefined;
}

/** geth's clearFailedLogs: a failed frame's logs, and its children's, never happened. */
function clearFailedLogs(frame: OpenFrame, parentFailed: boolean): void {
  const failed = (frame.error !== undefined && frame.reverted) || parentFailed;
  if (failed) frame.logs = [];
  for (const call of frame.calls) clearFailedLogs(call, failed);
}

function toJson(frame: OpenFrame): CallFrame {
  return {
    from: frame.from,
    gas: quantity(frame.gas),
    gasUsed: quantity(frame.gasUsed),
    to: frame.to,
    input: toHex(frame.input),
    output: frame.output === undefined || frame.output.length === 0 ? undefined : toHex(frame.output),
    error: frame.error,
    revertReason: frame.revertReason || undefined,
    calls: frame.calls.length === 0 ? undefined : frame.calls.map(toJson),
    logs: frame.logs.length === 0 ? undefined : frame.logs,
    value: frame.value === undefined ? undefined : quantity(frame.value),
    type: frame.type,
  };
}

export class CallTracer implements TxTracer {
  private readonly stack: OpenFrame[] = [];
  private root?: OpenFrame;
  private gasLimit = 0n;
  /** the depth of the frame running now, as geth counts */
  private depth = 0;
  readonly hooks: TraceHooks;

  /** `budget` counts the frames' JSON as they open and close (inputs and outputs are most of it); the tracing stops the EVM once it is exhausted. */
  constructor(
    private readonly config: Pick<TracerConfig, 'onlyTopCall' | 'withLog'> = {},
    private readonly budget = new AnswerBudget(Infinity, 'the trace'),
  ) {
    this.hooks = {
      onEnter: (start) => this.onEnter(start),
      onExit: (end) => this.onExit(end),
      onLog: (log) => this.onLog(log),
    };
  }

  async start(tx: TracedTransaction): Promise<void> {
    this.gasLimit = tx.gasLimit;
  }

  private onEnter(start: FrameStart): void {
    this.depth = start.depth;
    if (this.config.onlyTopCall && start.depth > 0) return;
    const frame = openFrame(start);
    this.budget.add(FRAME_BYTES + 2 * frame.input.length);
    if (start.depth === 0) {
      frame.gas = this.gasLimit;
      this.root = frame;
    }
    this.stack.push(frame);
  }

  private onExit(end: FrameEnd): void {
    if (end.depth === 0) {
      if (this.stack.length === 1) {
        close(this.stack[0], end);
        this.budget.add(2 * (this.stack[0].output?.length ?? 0));
      }
      return;
    }
    this.depth = end.depth - 1;
    if (this.config.onlyTopCall) return;
    if (this.stack.length <= 1) return;
    const frame = this.stack.pop()!;
    close(frame, end);
    this.budget.add(2 * (frame.output?.length ?? 0));
    this.stack.at(-1)!.calls.push(frame);
  }

  private onLog(log: EmittedLog): void {
    if (!this.config.withLog) return;
    const frame = this.stack.at(-1);
    // With onlyTopCall the stack holds the top frame alone: a subcall's logs are not its own.
    if (frame === undefined || (this.config.onlyTopCall && this.depth > 0)) return;
    this.budget.add(LOG_BYTES + 2 * log.data.length + 69 * log.topics.length);
    frame.logs.push({
      address: log.address.toString(),
      topics: log.topics.map(bytesToHex),
      data: toHex(log.data),
      index: quantity(log.index),
      position: quantity(frame.calls.length),
    });
  }

  async finish(outcome: TracedOutcome): Promise<CallFrame> {
    const root = this.root;
    if (root === undefined || this.stack.length !== 1) throw new Error('incorrect number of top-level calls');
    root.gasUsed = outcome.gasUsed;
    this.budget.check();
    if (this.config.withLog) clearFailedLogs(root, false);
    return toJson(root);
  }
}
