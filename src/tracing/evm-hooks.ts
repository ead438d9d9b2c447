// geth's tracing hooks (OnEnter, OnExit, OnOpcode, OnLog), built on @ethereumjs/evm's events, so the
// tracers read like geth's. The EVM tells less than geth's interpreter does; what it leaves out is
// reconstructed here, in one place:
//   - a frame's type comes from the opcode that opened it (messages do not say STATICCALL or CREATE2);
//   - a created contract's address arrives with `newContract`, after the message starts;
//   - the EVM emits `step` before it charges gas, so an opcode that could not pay (or whose stack was
//     short) is only known to have failed when its frame ends: geth logs such an opcode with the
//     error, and `onOpcodeFault` says so then;
//   - logs and SELFDESTRUCT frames are read off the opcode that makes them, and reported once it ran;
//   - the return data buffer an opcode sees is the last finished child frame's.
import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import { Hardfork, type StateManagerInterface } from '@ethereumjs/common';
import { Address, bigIntToBytes, createZeroAddress, generateAddress, generateAddress2, setLengthLeft } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { AnswerBudget } from '../format/answer-budget.js';
import { TraceError } from './errors.js';
import { checkFault, gethError, type LastStep } from './frame-errors.js';
import { Op } from './opcodes.js';
import type { EmittedLog, FrameStart, FrameType, TraceHooks } from './trace-hooks.js';

interface Frame {
  depth: number;
  type: FrameType;
  start: FrameStart;
  entered: boolean;
  returnData: Uint8Array;
  last?: LastStep;
  /** a LOG opcode's log, reported once the opcode has run */
  pendingLog?: Omit<EmittedLog, 'index'>;
  /** a SELFDESTRUCT's transfer, reported as a frame once the opcode has run */
  pendingDestruct?: { from: Address; to: Address; value: bigint };
  /**
   * A call or creation this frame's last opcode asked for: its message starts next — or, when the
   * caller is too deep or too poor, never, and geth still reports the frame, failed.
   */
  pendingOpen?: PendingOpen;
  logsAtStart: number;
}

interface PendingOpen {
  type: FrameType;
  from: Address;
  /** the callee; for a creation, worked out if it is refused */
  to?: Address;
  input: Uint8Array;
  gas: bigint;
  value?: bigint;
  /** CREATE2's salt */
  salt?: Uint8Array;
}

const EMPTY = new Uint8Array();
/** The stipend a call with value gets on top of the gas it forwards. */
const CALL_STIPEND = 2300n;
/** How deep calls may nest (geth's CallCreateDepth). */
const MAX_DEPTH = 1024;
/** Opcodes that end a frame without error: a frame whose last opcode is none of them ran off its code. */
const HALTS = new Set<number>([0x00, 0xf3, Op.SELFDESTRUCT]);

const OPENERS: Record<number, FrameType> = {
  [Op.CREATE]: 'CREATE',
  [Op.CREATE2]: 'CREATE2',
  [Op.CALL]: 'CALL',
  [Op.CALLCODE]: 'CALLCODE',
  [Op.DELEGATECALL]: 'DELEGATECALL',
  [Op.STATICCALL]: 'STATICCALL',
};

const word = (value: bigint) => setLengthLeft(bigIntToBytes(value), 32);
const addressOf = (value: bigint) => new Address(word(value).subarray(12));

/** `length` bytes of `memory` from `offset`, zero past its end (as memory expansion would leave them). */
function memorySlice(memory: Uint8Array, offset: bigint, length: bigint): Uint8Array {
  const out = new Uint8Array(Number(length));
  if (offset < BigInt(memory.length)) out.set(memory.subarray(Number(offset), Number(offset + length)));
  return out;
}

export interface ObserveOptions {
  /** the index the transaction's first log takes among its block's logs */
  firstLogIndex?: number;
  /** when (Date.now()) to give up: the EVM stops with a {@link TraceTimeoutError} at its next opcode */
  deadline?: number;
  /** the answer's bytes, which the hooks' tracer counts: once it is exhausted the EVM stops with its refusal at its next opcode */
  budget?: AnswerBudget;
}

/** A trace that ran past its deadline (geth: "execution timeout"), and, when it was the node's ceiling that ended it, which. */
export class TraceTimeoutError extends TraceError {
  constructor(ceiling?: string) {
    super(ceiling === undefined ? 'execution timeout' : `execution timeout: ${ceiling}`);
  }
}

/** Opcodes run between yields to the event loop: a long trace must not hold other requests up. */
const STEPS_PER_YIELD = 4096;
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Feeds `hooks` from `vm`'s EVM until the returned function is called. */
export function observe(vm: VM, hooks: TraceHooks, options: ObserveOptions = {}): () => void {
  const events = vm.evm.events;
  if (events === undefined) throw new Error('the EVM emits no events');
  const frames: Frame[] = [];
  const failures: unknown[] = [];
  let lastOp: number | undefined;
  let logCount = options.firstLogIndex ?? 0;

  const enter = (frame: Frame) => {
    frame.entered = true;
    hooks.onEnter?.(frame.start);
  };

  const flushLog = (frame: Frame) => {
    if (frame.pendingLog === undefined) return;
    hooks.onLog?.({ ...frame.pendingLog, index: logCount++ });
    frame.pendingLog = undefined;
  };

  const beforeMessage = (message: Message, resolve?: (result?: unknown) => void) => {
    const parent = frames.at(-1);
    if (parent !== undefined) {
      flushLog(parent);
      parent.pendingOpen = undefined;
    }
    const creates = message.to === undefined;
    const type: FrameType =
      message.depth === 0 || lastOp === undefined || OPENERS[lastOp] === undefined
        ? creates
          ? message.salt === undefined
            ? 'CREATE'
            : 'CREATE2'
          : message.delegatecall
            ? 'DELEGATECALL'
            : 'CALL'
        : OPENERS[lastOp];
    const [from, to] =
      type === 'DELEGATECALL' ? [message.to!, message.codeAddress] : type === 'CALLCODE' ? [message.caller, message.codeAddress] : [message.caller, message.to ?? createZeroAddress()];
    const start: FrameStart = {
      depth: message.depth,
      type,
      from,
      to,
      // (a view of the caller's memory, which later opcodes overwrite)
      input: message.data.slice(),
      gas: message.gasLimit,
      value: type === 'STATICCALL' ? undefined : message.value,
    };
    const frame: Frame = { depth: message.depth, type, start, entered: false, returnData: EMPTY, logsAtStart: logCount };
    frames.push(frame);
    // A creation is entered once its address is known (newContract, or its end).
    if (!creates) enter(frame);
    resolve?.();
  };

  const newContract = (event: { address: Address }, resolve?: (result?: unknown) => void) => {
    const frame = frames.at(-1);
    if (frame !== undefined && !frame.entered) {
      frame.start.to = event.address;
      enter(frame);
    }
    resolve?.();
  };

  /** Lets the EVM go on once `work` is done; a hook's failure surfaces when observing stops, never wedges the EVM. */
  const settle = (work: Promise<void>, resolve?: (result?: unknown) => void) => {
    work.then(
      () => resolve?.(),
      (error: unknown) => {
        failures.push(error);
        resolve?.();
      },
    );
  };

  // EIP-150: a call forwards at most all but one 64th of the gas left.
  const eip150 = vm.common.gteHardfork(Hardfork.TangerineWhistle);
  const allButOne64th = (gas: bigint) => (eip150 ? gas - gas / 64n : gas);

  /**
   * What a call or creation opcode asks for, and what geth reports as its cost: for a call the
   * gas it forwards counts (the EVM charges that later, once the callee has used it).
   */
  const opening = (data: InterpreterStep, base: bigint, frame: Frame): { cost: bigint; open?: PendingOpen } => {
    const op = data.opcode.code;
    const type = OPENERS[op];
    const stack = data.stack;
    const top = stack.length - 1;
    if (type === undefined || stack.length < (type === 'CREATE' ? 3 : type === 'CREATE2' ? 4 : 6)) return { cost: base };
    const available = data.gasLeft - base;
    if (type === 'CREATE' || type === 'CREATE2') {
      const [value, offset, size] = [stack[top], stack[top - 1], stack[top - 2]];
      const salt = type === 'CREATE2' ? word(stack[top - 3]) : undefined;
      return { cost: base, open: { type, from: data.address, input: memorySlice(data.memory, offset, size), gas: allButOne64th(available), value, salt } };
    }
    const requested = stack[top];
    const forwarded = !eip150 || available < 0n ? requested : requested < allButOne64th(available) ? requested : allButOne64th(available);
    const hasValue = type === 'CALL' || type === 'CALLCODE';
    const value = hasValue ? stack[top - 2] : type === 'DELEGATECALL' ? (frame.start.value ?? 0n) : undefined;
    const [offset, size] = hasValue ? [stack[top - 3], stack[top - 4]] : [stack[top - 2], stack[top - 3]];
    const target = addressOf(stack[top - 1]);
    return {
      cost: base + forwarded,
      open: {
        type,
        from: data.address,
        to: target,
        input: memorySlice(data.memory, offset, size),
        gas: forwarded + (hasValue && value! > 0n ? CALL_STIPEND : 0n),
        value,
      },
    };
  };

  /** A call the frame asked for never started (too deep, or too little balance): geth reports it, failed. */
  const refused = async (frame: Frame, state: StateManagerInterface) => {
    const open = frame.pendingOpen;
    frame.pendingOpen = undefined;
    if (open === undefined) return;
    let to = open.to;
    if (to === undefined) {
      const nonce = (await state.getAccount(open.from))?.nonce ?? 0n;
      to = new Address(open.salt === undefined ? generateAddress(open.from.bytes, bigIntToBytes(nonce)) : generateAddress2(open.from.bytes, open.salt, open.input));
    }
    const depth = frame.depth + 1;
    hooks.onEnter?.({ depth, type: open.type, from: open.from, to, input: open.input, gas: open.gas, value: open.value });
    const error = depth > MAX_DEPTH ? 'max call depth exceeded' : 'insufficient balance for transfer';
    hooks.onExit?.({ depth, output: EMPTY, gasUsed: 0n, error, reverted: true });
    frame.returnData = EMPTY;
  };

  let steps = 0;
  const step = (data: InterpreterStep, resolve?: (result?: unknown) => void) => {
    // Thrown here, synchronously, it stops the EVM (a hook's failure would not).
    if (options.deadline !== undefined && Date.now() > options.deadline) throw new TraceTimeoutError();
    if (options.budget?.exhausted === true) throw options.budget.refusal();
    const frame = frames.at(-1);
    const run = async () => {
      if (++steps % STEPS_PER_YIELD === 0) await yieldToEventLoop();
      if (frame === undefined) return;
      flushLog(frame);
      await refused(frame, data.stateManager);
      const op = data.opcode.code;
      lastOp = op;
      const { cost, open } = opening(data, data.opcode.dynamicFee ?? BigInt(data.opcode.fee), frame);
      frame.pendingOpen = open;
      frame.last = { op, gas: data.gasLeft, cost, fee: BigInt(data.opcode.fee), stackDepth: data.stack.length };
      const stack = data.stack;
      if (op >= Op.LOG0 && op <= Op.LOG4 && stack.length >= 2 + op - Op.LOG0) {
        const [offset, size] = [stack[stack.length - 1], stack[stack.length - 2]];
        const topics = Array.from({ length: op - Op.LOG0 }, (_, i) => word(stack[stack.length - 3 - i]));
        frame.pendingLog = { address: data.address, topics, data: memorySlice(data.memory, offset, size) };
      }
      if (op === Op.SELFDESTRUCT && stack.length >= 1) {
        const account = await data.stateManager.getAccount(data.address);
        frame.pendingDestruct = { from: data.address, to: addressOf(stack[stack.length - 1]), value: account?.balance ?? 0n };
      }
      await hooks.onOpcode?.({
        pc: data.pc,
        op,
        gas: data.gasLeft,
        cost,
        depth: data.depth + 1,
        stack,
        memory: data.memory,
        address: data.address,
        returnData: frame.returnData,
        refund: data.gasRefund,
        state: data.stateManager,
      });
    };
    settle(run(), resolve);
  };

  /**
   * Code that runs off its end stops there; geth's interpreter reads a STOP past the last byte and
   * logs it, the EVM just stops: report that STOP, on the state the frame ended with.
   */
  const impliedStop = async (frame: Frame, result: EVMResult) => {
    const state = result.execResult.runState;
    if (frame.last === undefined || HALTS.has(frame.last.op) || state === undefined || state.programCounter < state.code.length) return;
    await hooks.onOpcode?.({
      pc: state.programCounter,
      op: 0x00,
      gas: state.gasLeft,
      cost: 0n,
      depth: frame.depth + 1,
      stack: state.stack.getStack(),
      memory: state.memory.read(0, Number(state.memoryWordCount) * 32, true),
      address: state.interpreter.getAddress(),
      returnData: frame.returnData,
      // (the run state's own refund member is the frame's starting one)
      refund: result.execResult.gasRefund ?? 0n,
      state: state.stateManager,
    });
  };

  const afterMessage = (result: EVMResult, resolve?: (result?: unknown) => void) => {
    settle(frameEnded(result), resolve);
  };

  const frameEnded = async (result: EVMResult) => {
    const frame = frames.pop();
    if (frame !== undefined) {
      const error = result.execResult.exceptionError;
      if (error === undefined) await impliedStop(frame, result);
      if (!frame.entered) {
        frame.start.to = result.createdAddress ?? frame.start.to;
        enter(frame);
      }
      let message: string | undefined;
      if (error === undefined) {
        flushLog(frame);
        await refused(frame, result.execResult.runState?.stateManager ?? vm.stateManager);
        if (frame.pendingDestruct !== undefined) {
          const { from, to, value } = frame.pendingDestruct;
          const depth = frame.depth + 1;
          hooks.onEnter?.({ depth, type: 'SELFDESTRUCT', from, to, input: EMPTY, gas: 0n, value });
          hooks.onExit?.({ depth, output: EMPTY, gasUsed: 0n, reverted: false });
        }
      } else {
        const fault = checkFault(frame.last, error);
        if (fault !== undefined) hooks.onOpcodeFault?.(frame.depth + 1, fault.error, fault.cost);
        message = fault?.error ?? gethError(error, frame);
        // As geth's journal does, a failed frame takes its logs' indexes back.
        logCount = frame.logsAtStart;
      }
      const reverted = error?.error === 'revert';
      // Before Homestead a creation that cannot pay for its code still succeeds, without the code.
      const kept = error?.error === 'code store out of gas';
      const output = error === undefined || reverted || kept ? result.execResult.returnValue : EMPTY;
      hooks.onExit?.({ depth: frame.depth, output, gasUsed: result.execResult.executionGasUsed, error: message, reverted: error !== undefined && !kept });
      const parent = frames.at(-1);
      if (parent !== undefined) {
        const creates = frame.type === 'CREATE' || frame.type === 'CREATE2';
        parent.returnData = creates ? (reverted ? output : EMPTY) : output;
      }
    }
  };

  events.on('beforeMessage', beforeMessage);
  events.on('newContract', newContract);
  events.on('step', step);
  events.on('afterMessage', afterMessage);
  return () => {
    events.off('beforeMessage', beforeMessage);
    events.off('newContract', newContract);
    events.off('step', step);
    events.off('afterMessage', afterMessage);
    if (failures.length > 0) throw failures[0];
  };
}
