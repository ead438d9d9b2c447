// geth's default tracer, the struct logger: one entry per opcode with the gas before it and its cost,
// the stack, optionally memory and return data, and at SLOAD/SSTORE the storage the contract has
// touched so far in this transaction — in geth's JSON, member for member.
import { bigIntToBytes, setLengthLeft } from '@ethereumjs/util';
import type { StructLog, StructTrace, TraceConfig } from '../../generated/types.js';
import { toHex } from '../codec/hex.js';
import { AnswerBudget } from '../format/answer-budget.js';
import type { TraceHooks, OpcodeStep, FrameEnd } from './trace-hooks.js';
import { Op, opcodeName } from './opcodes.js';
import type { TracedOutcome, TxTracer } from './tracer.js';

/** The struct logger's options, from the trace config. */
export type StructLoggerConfig = Pick<TraceConfig, 'enableMemory' | 'disableStack' | 'disableStorage' | 'enableReturnData' | 'limit'>;

/** How a struct trace can be made smaller, for the refusal of one too large. */
export const STRUCT_TRACE_ADVICE = 'trace fewer opcodes (limit) or less of each (disableStack, disableStorage, no enableMemory), or use callTracer';

const hexWord = (value: bigint | Uint8Array) => toHex(setLengthLeft(typeof value === 'bigint' ? bigIntToBytes(value) : value, 32));
const quantity = (value: bigint) => `0x${value.toString(16)}`;

/** The JSON of a number, a string of `length` characters and of a string array's items, in bytes (none of them escaped). */
const numberBytes = (value: number) => String(value).length;
const listBytes = (items: readonly string[]) => items.reduce((sum, item) => sum + item.length + 3, items.length === 0 ? 2 : 1);
const WORD_BYTES = 66;

/**
 * The bytes of `entry`'s JSON, counted rather than serialised: each member as JSON.stringify writes
 * it (every string here is hex or an opcode name, which need no escaping).
 */
function entryBytes(entry: StructLog): number {
  let bytes = 6 + numberBytes(entry.pc) + 8 + entry.op.length + 7 + numberBytes(entry.gas) + 11 + numberBytes(entry.gasCost) + 9 + numberBytes(entry.depth) + 1;
  if (entry.error !== undefined) bytes += 11 + String(entry.error).length;
  if (entry.stack !== undefined) bytes += 9 + listBytes(entry.stack);
  if (entry.returnData !== undefined) bytes += 16 + entry.returnData.length;
  if (entry.memory !== undefined) bytes += 10 + listBytes(entry.memory);
  if (entry.storage !== undefined) {
    const slots = Object.keys(entry.storage).length;
    bytes += 11 + (slots === 0 ? 2 : 1 + slots * (2 * WORD_BYTES + 6));
  }
  if (entry.refund !== undefined) bytes += 10 + numberBytes(entry.refund);
  return bytes;
}

/** Memory encoded as hex this many bytes at a time: the text of each stays in V8's heap (Node makes a string past ~1 MB external, outside it). */
const MEMORY_CHUNK = 64 * 1024;

/**
 * Memory as geth logs it, a word a string: each word a slice of its chunk's hex. Encoded byte by
 * byte (bytesToHex), a megabyte of memory took ~29 MB of heap a step.
 */
function memoryWords(memory: Uint8Array): string[] {
  const words = new Array<string>(memory.length / 32);
  const view = Buffer.from(memory.buffer, memory.byteOffset, memory.byteLength);
  for (let chunk = 0; chunk < memory.length; chunk += MEMORY_CHUNK) {
    const hex = view.toString('hex', chunk, Math.min(chunk + MEMORY_CHUNK, memory.length));
    for (let at = 0; at < hex.length; at += 64) words[(chunk + at / 2) / 32] = `0x${hex.slice(at, at + 64)}`;
  }
  return words;
}

export class StructLogger implements TxTracer {
  private readonly logs: StructLog[] = [];
  /** where the last entry logged at each depth is, which a fault at that depth belongs to */
  private readonly lastAtDepth: (number | undefined)[] = [];
  /** per contract, the slots read or written so far and their values */
  private readonly storage = new Map<string, Map<string, string>>();
  /** bytes of the logged entries' JSON (geth's `limit` counts them), separators included */
  private size = 0;
  private output: Uint8Array = new Uint8Array();
  private error?: string;
  private reverted = false;
  readonly hooks: TraceHooks;

  /**
   * `budget` counts the trace's JSON as entries are logged (the answer's, shared by every trace of a
   * block): once it is exhausted nothing more is logged, and the tracing stops the EVM.
   */
  constructor(
    private readonly config: StructLoggerConfig = {},
    private readonly budget = new AnswerBudget(Infinity, 'the trace'),
  ) {
    this.hooks = {
      onOpcode: (step) => this.onOpcode(step),
      onOpcodeFault: (depth, error, cost) => {
        const at = this.lastAtDepth[depth];
        if (at === undefined) return;
        // Rebuilt rather than amended, so the members keep geth's order.
        const entry = this.logs[at];
        const replaced = entryBytes(entry);
        this.logs[at] = {
          pc: entry.pc,
          op: entry.op,
          gas: entry.gas,
          gasCost: Number(cost),
          depth: entry.depth,
          error,
          ...(entry.stack && { stack: entry.stack }),
          ...(entry.returnData && { returnData: entry.returnData }),
          ...(entry.memory && { memory: entry.memory }),
          ...(entry.storage && { storage: entry.storage }),
          ...(entry.refund && { refund: entry.refund }),
        };
        this.count(entryBytes(this.logs[at]) - replaced);
      },
      onExit: (frame) => this.onExit(frame),
    };
  }

  private async onOpcode(step: OpcodeStep): Promise<void> {
    const { limit = 0 } = this.config;
    if ((limit !== 0 && this.size > limit) || this.budget.exhausted) return;
    const entry: StructLog = { pc: step.pc, op: opcodeName(step.op), gas: Number(step.gas), gasCost: Number(step.cost), depth: step.depth };
    if (!this.config.disableStack) entry.stack = step.stack.map(quantity);
    if (this.config.enableReturnData && step.returnData.length > 0) entry.returnData = toHex(step.returnData);
    if (this.config.enableMemory && step.memory.length > 0) entry.memory = memoryWords(step.memory);
    if (!this.config.disableStorage && (step.op === Op.SLOAD || step.op === Op.SSTORE)) {
      const contract = step.address.toString();
      const slots = this.storage.get(contract) ?? new Map<string, string>();
      this.storage.set(contract, slots);
      const stack = step.stack;
      if (step.op === Op.SLOAD && stack.length >= 1) {
        const key = hexWord(stack[stack.length - 1]);
        slots.set(key, hexWord(await step.state.getStorage(step.address, setLengthLeft(bigIntToBytes(stack[stack.length - 1]), 32))));
        entry.storage = Object.fromEntries([...slots].sort(([a], [b]) => (a < b ? -1 : 1)));
      } else if (step.op === Op.SSTORE && stack.length >= 2) {
        slots.set(hexWord(stack[stack.length - 1]), hexWord(stack[stack.length - 2]));
        entry.storage = Object.fromEntries([...slots].sort(([a], [b]) => (a < b ? -1 : 1)));
      }
    }
    if (step.refund > 0n) entry.refund = Number(step.refund);
    this.lastAtDepth[step.depth] = this.logs.push(entry) - 1;
    this.count(entryBytes(entry) + (this.logs.length > 1 ? 1 : 0));
  }

  private count(bytes: number): void {
    this.size += bytes;
    this.budget.add(bytes);
  }

  private onExit(frame: FrameEnd): void {
    if (frame.depth !== 0) return;
    this.output = frame.output;
    this.error = frame.error;
    this.reverted = frame.error === 'execution reverted';
  }

  async finish(outcome: TracedOutcome): Promise<StructTrace> {
    const failed = this.error !== undefined;
    const gas = Number(outcome.gasUsed);
    // The return data when it succeeded, the revert data when it reverted, else nothing.
    const returned = failed && !this.reverted ? new Uint8Array() : this.output;
    // {"gas":…,"failed":…,"returnValue":"0x…","structLogs":[…]}, the entries counted already.
    this.budget.add(7 + numberBytes(gas) + 10 + String(failed).length + 16 + 2 + 2 * returned.length + 1 + 15 + 2);
    this.budget.check();
    return { gas, failed, returnValue: toHex(returned), structLogs: this.logs };
  }
}
