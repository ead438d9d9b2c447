// The EVM's step events and message ends, as lines: with tracing on, the engines must emit the same ones.
import { createHash } from 'node:crypto';
import type { VM } from './engine.js';
import { hex } from './outcome.js';

export type Trace = string[];

interface StepEvent {
  pc: number;
  depth: number;
  opcode: { name: string; fee: number; dynamicFee?: bigint; isAsync: boolean };
  gasLeft: bigint;
  gasRefund: bigint;
  stack: bigint[];
  memory: Uint8Array;
  memoryWordCount: bigint;
  address: { toString(): string };
  codeAddress: { toString(): string };
  error?: Uint8Array;
}

interface MessageEnd {
  createdAddress?: { toString(): string };
  execResult: { exceptionError?: { error: string }; executionGasUsed: bigint; returnValue: Uint8Array };
}

const digest = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex').slice(0, 16);

/** Records `vm`'s steps and message ends until stop() is called. */
export function listen(vm: VM): { trace: Trace; stop(): void } {
  const trace: Trace = [];
  const step = (s: StepEvent) => {
    trace.push(
      [s.depth, s.pc, s.opcode.name, s.opcode.fee, s.opcode.dynamicFee, s.opcode.isAsync, s.gasLeft, s.gasRefund, s.stack.join(','), s.memoryWordCount, digest(s.memory), s.address, s.codeAddress, hex(s.error)].join(' '),
    );
  };
  const end = (r: MessageEnd) => {
    trace.push(['end', r.createdAddress, r.execResult.exceptionError?.error, r.execResult.executionGasUsed, hex(r.execResult.returnValue)].join(' '));
  };
  const events = vm.evm.events!;
  events.on('step', step as never);
  events.on('afterMessage', end as never);
  return {
    trace,
    stop() {
      events.off('step', step as never);
      events.off('afterMessage', end as never);
    },
  };
}
