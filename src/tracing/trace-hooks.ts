// geth's tracing hooks as tracers implement them (OnEnter, OnExit, OnOpcode, OnLog) and what each
// hook is told; evm-hooks.ts drives them from the EVM's events.
import type { StateManagerInterface } from '@ethereumjs/common';
import type { Address } from '@ethereumjs/util';

export type FrameType = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT';

export interface FrameStart {
  /** 0 for the transaction's own frame, as geth counts */
  depth: number;
  type: FrameType;
  from: Address;
  to: Address;
  input: Uint8Array;
  gas: bigint;
  /** absent for STATICCALL, which carries none */
  value?: bigint;
}

export interface FrameEnd {
  depth: number;
  output: Uint8Array;
  gasUsed: bigint;
  /** geth's wording of what stopped the frame */
  error?: string;
  reverted: boolean;
}

export interface OpcodeStep {
  pc: number;
  op: number;
  /** gas left before the opcode */
  gas: bigint;
  /** what the opcode costs, including gas it forwards to a call */
  cost: bigint;
  /** 1 for the transaction's own code, as geth counts */
  depth: number;
  /** bottom first */
  stack: readonly bigint[];
  /** memory before the opcode expands it */
  memory: Uint8Array;
  /** the account whose storage and balance the code works on */
  address: Address;
  returnData: Uint8Array;
  refund: bigint;
  state: StateManagerInterface;
}

export interface EmittedLog {
  address: Address;
  topics: Uint8Array[];
  data: Uint8Array;
  /** the log's index among the block's logs */
  index: number;
}

export interface TraceHooks {
  onEnter?(frame: FrameStart): void;
  onExit?(frame: FrameEnd): void;
  onOpcode?(step: OpcodeStep): void | Promise<void>;
  /** The last opcode reported at `depth` failed its gas or stack check: geth logs it with `error` and this `cost`. */
  onOpcodeFault?(depth: number, error: string, cost: bigint): void;
  onLog?(log: EmittedLog): void;
}
