// geth's default tracer, the struct logger: one entry per opcode with the gas before it and its cost,
// the stack, optionally memory and return data, and at SLOAD/SSTORE the storage the contract has
// touched so far in this transaction — in geth's JSON, member for member.
import { bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import type { StructLog, StructTrace, TraceConfig } from '../../generated/types.js';
import type { TraceHooks, OpcodeStep, FrameEnd } from './evm-hooks.js';
import { Op, opcodeName } from './opcodes.js';
import type { TracedOutcome, TxTracer } from './tracer.js';

/** The struct logger's options, from the trace config. */
export type StructLoggerConfig = Pick<TraceConfig, 'enableMemory' | 'disableStack' | 'disableStorage' | 'enableReturnData' | 'limit'>;

const hexWord = (value: bigint | Uint8Array) => bytesToHex(setLengthLeft(typeof value === 'bigint' ? bigIntToBytes(value) : value, 32));
const quantity = (value: bigint) => `0x${value.toString(16)}`;

function memoryWords(memory: Uint8Array): string[] {
  const words: string[] = [];
  for (let at = 0; at < memory.length; at += 32) words.push(bytesToHex(memory.subarray(at, at + 32)));
  return words;
}

export class StructLogger implements TxTracer {
  private readonly logs: StructLog[] = [];
  /** where the last entry logged at each depth is, which a fault at that depth belongs to */
  private readonly lastAtDepth: (number | undefined)[] = [];
  /** per contract, the slots read or written so far and their values */
  private readonly storage = new Map<string, Map<string, string>>();
  private size = 0;
  private output: Uint8Array = new Uint8Array();
  private error?: string;
  private reverted = false;
  readonly hooks: TraceHooks;

  constructor(private readonly config: StructLoggerConfig = {}) {
    this.hooks = {
      onOpcode: (step) => this.onOpcode(step),
      onOpcodeFault: (depth, error, cost) => {
        const at = this.lastAtDepth[depth];
        if (at === undefined) return;
        // Rebuilt rather than amended, so the members keep geth's order.
        const entry = this.logs[at];
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
      },
      onExit: (frame) => this.onExit(frame),
    };
  }

  private async onOpcode(step: OpcodeStep): Promise<void> {
    const { limit = 0 } = this.config;
    if (limit !== 0 && this.size > limit) return;
    const entry: StructLog = { pc: step.pc, op: opcodeName(step.op), gas: Number(step.gas), gasCost: Number(step.cost), depth: step.depth };
    if (!this.config.disableStack) entry.stack = step.stack.map(quantity);
    if (this.config.enableReturnData && step.returnData.length > 0) entry.returnData = bytesToHex(step.returnData);
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
    if (limit !== 0) this.size += JSON.stringify(entry).length;
  }

  private onExit(frame: FrameEnd): void {
    if (frame.depth !== 0) return;
    this.output = frame.output;
    this.error = frame.error;
    this.reverted = frame.error === 'execution reverted';
  }

  async finish(outcome: TracedOutcome): Promise<StructTrace> {
    const failed = this.error !== undefined;
    return {
      gas: Number(outcome.gasUsed),
      failed,
      // The return data when it succeeded, the revert data when it reverted, else nothing.
      returnValue: failed && !this.reverted ? '0x' : bytesToHex(this.output),
      structLogs: this.logs,
    };
  }
}
