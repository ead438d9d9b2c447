// Random programs that do something: every opcode with its operands pushed first (stack height kept, so a
// program runs on past one instruction), memory, storage and transient storage, logs, branches and bounded
// loops, calls of every kind to the world's contracts, precompiles (with well-formed input as often as not),
// empty and delegated accounts, creates whose init code is itself such a program, and every way a frame ends.
// Gas passed to calls is often too little, so frames run out of gas at every depth; a few bytes are raw,
// any opcode at all (undefined ones, INVALID, jumps to nowhere).
import { Asm, OP } from './asm.js';
import type { Random } from './random.js';

/** Addresses a program may name. */
export interface Targets {
  contracts: readonly string[];
  eoas: readonly string[];
  /** EOAs whose code delegates to a contract (EIP-7702) */
  delegated: readonly string[];
  /** never touched before */
  absent: readonly string[];
}

export const PRECOMPILES = [...Array.from({ length: 0x11 }, (_, i) => i + 1), 0x100];

const BINARY = [OP.ADD, OP.MUL, OP.SUB, OP.DIV, OP.SDIV, OP.MOD, OP.SMOD, OP.EXP, OP.SIGNEXTEND, OP.LT, OP.GT, OP.SLT, OP.SGT, OP.EQ, OP.AND, OP.OR, OP.XOR, OP.BYTE, OP.SHL, OP.SHR, OP.SAR];
const UNARY = [OP.ISZERO, OP.NOT, OP.CLZ];
const NULLARY = [
  OP.ADDRESS, OP.ORIGIN, OP.CALLER, OP.CALLVALUE, OP.CALLDATASIZE, OP.CODESIZE, OP.GASPRICE, OP.RETURNDATASIZE, OP.COINBASE, OP.TIMESTAMP, OP.NUMBER,
  OP.PREVRANDAO, OP.GASLIMIT, OP.CHAINID, OP.SELFBALANCE, OP.BASEFEE, OP.BLOBBASEFEE, OP.GAS, OP.PC, OP.MSIZE,
];
/** Where a created contract's address is kept, for later calls to it. */
const CREATED_SLOT = 0x3e0n;
/** Where init code is written before a create. */
const INIT_AT = 0x400n;

/** The bn254 generator (1, 2): ecAdd of it with itself and ecMul of it succeed. */
const G1 = [1n, 2n];

const address = (hex: string) => BigInt(hex);

export class ProgramGenerator {
  constructor(
    private readonly random: Random,
    private readonly targets: Targets,
  ) {}

  /** A contract's code: some chunks, then an ending. */
  program(depth = 0): Uint8Array {
    const asm = new Asm();
    const chunks = 1 + this.random.int(depth === 0 ? 24 : 8);
    for (let i = 0; i < chunks; i++) this.chunk(asm, depth);
    this.ending(asm);
    return asm.build();
  }

  private word(): bigint {
    return this.random.word();
  }

  /** A memory offset: small mostly; now and then one that costs much or cannot be paid for. */
  private offset(): bigint {
    const r = this.random.next();
    if (r < 0.9) return BigInt(this.random.int(0x300));
    if (r < 0.97) return BigInt(this.random.int(0x20000));
    return this.random.chance(0.5) ? 1n << 32n : (1n << 256n) - 1n;
  }

  private size(): bigint {
    const r = this.random.next();
    if (r < 0.85) return BigInt(this.random.int(0x60));
    if (r < 0.97) return BigInt(this.random.int(0x2000));
    return 1n << BigInt(20 + this.random.int(40));
  }

  private anyAddress(): bigint {
    const { contracts, eoas, delegated, absent } = this.targets;
    switch (this.random.int(7)) {
      case 0:
      case 1:
      case 2:
        return address(this.random.pick(contracts));
      case 3:
        return BigInt(this.random.pick(PRECOMPILES));
      case 4:
        return address(this.random.pick([...eoas, ...delegated]));
      case 5:
        return address(this.random.pick(absent));
      default:
        return this.random.word();
    }
  }

  /** Leaves the value on top of the stack stored in memory, or drops it. */
  private consume(asm: Asm): void {
    if (this.random.chance(0.5)) asm.op(OP.POP);
    else asm.push(this.random.int(0x200)).op(OP.MSTORE);
  }

  private chunk(asm: Asm, depth: number): void {
    const r = this.random.int(100);
    if (r < 14) this.arithmetic(asm);
    else if (r < 24) this.memory(asm);
    else if (r < 36) this.storage(asm);
    else if (r < 46) this.environment(asm);
    else if (r < 52) this.log(asm);
    else if (r < 68) this.call(asm);
    else if (r < 74) this.create(asm, depth);
    else if (r < 80) this.branch(asm, depth);
    else if (r < 84) this.loop(asm, depth);
    else if (r < 90) this.stack(asm);
    else if (r < 94) this.precompileInput(asm);
    else if (r < 97) this.raw(asm);
    else this.ending(asm);
  }

  private arithmetic(asm: Asm): void {
    const r = this.random.int(10);
    if (r < 7) asm.push(this.word()).push(this.word()).op(this.random.pick(BINARY));
    else if (r < 9) asm.push(this.word()).push(this.word()).push(this.word()).op(this.random.pick([OP.ADDMOD, OP.MULMOD]));
    else asm.push(this.word()).op(this.random.pick(UNARY));
    this.consume(asm);
  }

  private memory(asm: Asm): void {
    switch (this.random.int(9)) {
      case 0:
        asm.push(this.word()).push(this.offset()).op(OP.MSTORE);
        break;
      case 1:
        asm.push(this.word()).push(this.offset()).op(OP.MSTORE8);
        break;
      case 2:
        asm.push(this.offset()).op(OP.MLOAD, OP.POP);
        break;
      case 3:
        asm.push(this.size()).push(this.offset()).push(this.offset()).op(OP.MCOPY);
        break;
      case 4:
        asm.push(this.size()).push(this.offset()).op(OP.KECCAK256);
        this.consume(asm);
        break;
      case 5:
        asm.push(this.size()).push(this.random.int(0x80)).push(this.offset()).op(OP.CALLDATACOPY);
        break;
      case 6:
        asm.push(this.size()).push(this.random.int(0x100)).push(this.offset()).op(OP.CODECOPY);
        break;
      case 7:
        asm.push(this.random.chance(0.8) ? this.random.int(0x40) : this.size()).push(this.random.int(0x40)).push(this.offset()).op(OP.RETURNDATACOPY);
        break;
      default:
        asm.push(this.size()).push(this.random.int(0x100)).push(this.offset()).push(this.anyAddress()).op(OP.EXTCODECOPY);
    }
  }

  private storage(asm: Asm): void {
    const key = this.random.chance(0.9) ? BigInt(this.random.int(6)) : this.word();
    const value = this.random.chance(0.3) ? 0n : this.random.chance(0.5) ? BigInt(this.random.int(3)) : this.word();
    switch (this.random.int(5)) {
      case 0:
      case 1:
        asm.push(value).push(key).op(OP.SSTORE);
        break;
      case 2:
        asm.push(key).op(OP.SLOAD);
        this.consume(asm);
        break;
      case 3:
        asm.push(value).push(key).op(OP.TSTORE);
        break;
      default:
        asm.push(key).op(OP.TLOAD);
        this.consume(asm);
    }
  }

  private environment(asm: Asm): void {
    switch (this.random.int(4)) {
      case 0:
        asm.op(this.random.pick(NULLARY));
        break;
      case 1:
        asm.push(this.anyAddress()).op(this.random.pick([OP.BALANCE, OP.EXTCODESIZE, OP.EXTCODEHASH]));
        break;
      case 2:
        asm.push(this.random.chance(0.7) ? BigInt(100 - this.random.int(300)) & ((1n << 256n) - 1n) : this.word()).op(OP.BLOCKHASH);
        break;
      default:
        asm.push(this.random.chance(0.7) ? BigInt(this.random.int(3)) : BigInt(this.random.int(0x80))).op(this.random.pick([OP.BLOBHASH, OP.CALLDATALOAD]));
    }
    this.consume(asm);
  }

  private log(asm: Asm): void {
    const topics = this.random.int(5);
    for (let i = 0; i < topics; i++) asm.push(this.word());
    asm.push(this.size()).push(this.offset()).op(OP.LOG0 + topics);
  }

  /** Gas for a call: too little for anything, some, a share of what is left, or all of it. */
  private callGas(asm: Asm): void {
    switch (this.random.int(5)) {
      case 0:
        asm.push(this.random.int(3000));
        break;
      case 1:
        asm.push(10_000 + this.random.int(100_000));
        break;
      case 2:
        asm.push(2 + this.random.int(6)).op(OP.GAS, OP.DIV);
        break;
      case 3:
        asm.op(OP.GAS);
        break;
      default:
        asm.push(this.random.chance(0.5) ? this.word() : 1n << 64n);
    }
  }

  private call(asm: Asm): void {
    const kind = this.random.pick([OP.CALL, OP.CALL, OP.CALLCODE, OP.DELEGATECALL, OP.STATICCALL, OP.STATICCALL]);
    asm.push(this.random.chance(0.8) ? BigInt(this.random.int(0x80)) : this.size()); // return size
    asm.push(this.offset()); // return offset
    asm.push(this.random.chance(0.8) ? BigInt(this.random.int(0x120)) : this.size()); // argument size
    asm.push(this.random.chance(0.8) ? 0n : this.offset()); // argument offset
    if (kind === OP.CALL || kind === OP.CALLCODE) asm.push(this.random.chance(0.75) ? 0n : BigInt(this.random.int(3)));
    if (this.random.chance(0.1)) asm.push(CREATED_SLOT).op(OP.MLOAD);
    else asm.push(this.anyAddress());
    this.callGas(asm);
    asm.op(kind);
    this.consume(asm);
  }

  /** Memory laid out as a precompile's well-formed input, for the next calls to read from offset 0. */
  private precompileInput(asm: Asm): void {
    const words: bigint[] = [];
    switch (this.random.int(5)) {
      case 0: // ecAdd / ecMul / ecPairing's first pair: the generator
        words.push(...G1, ...G1, BigInt(this.random.int(1000)));
        break;
      case 1: // modexp: base, exponent and modulus of up to 32 bytes
        words.push(32n, 32n, 32n, this.word(), BigInt(this.random.int(300)), this.word() | 1n);
        break;
      case 2: // blake2f: rounds, then h, m, t and the final-block flag
        asm.push(BigInt(this.random.int(16)) << 224n).push(0).op(OP.MSTORE);
        for (let i = 1; i < 7; i++) asm.push(this.word()).push(4 + 32 * (i - 1)).op(OP.MSTORE);
        asm.push(1n << 248n).push(0xc4).op(OP.MSTORE);
        return;
      case 3: // ecrecover: hash, v, r, s
        words.push(this.word(), 27n + BigInt(this.random.int(2)), this.word(), this.word());
        break;
      default:
        for (let i = 0; i < 6; i++) words.push(this.word());
    }
    words.forEach((word, i) => asm.push(word).push(32 * i).op(OP.MSTORE));
  }

  /** Writes `code` to memory at INIT_AT, 32 bytes at a time. */
  private writeCode(asm: Asm, code: Uint8Array): void {
    for (let at = 0; at < code.length; at += 32) {
      const word = new Uint8Array(32);
      word.set(code.subarray(at, at + 32));
      asm.push(BigInt(`0x${Buffer.from(word).toString('hex')}`), true).push(INIT_AT + BigInt(at)).op(OP.MSTORE);
    }
  }

  /** Init code: a program that returns runtime code (a program, raw bytes, EF-prefixed, or more than the size limit), or reverts, or stops. */
  initCode(depth = 0): Uint8Array {
    const init = new Asm();
    for (let i = this.random.int(depth < 2 ? 4 : 1); i > 0; i--) this.chunk(init, depth + 1);
    const r = this.random.int(10);
    if (r < 6) {
      const runtime = r < 4 ? this.program(depth + 1) : this.random.chance(0.5) ? Uint8Array.of(0xef, ...this.random.bytes(3)) : this.random.bytes(this.random.int(40));
      const body = new Asm();
      // The runtime follows the init code and these 13 bytes, and is copied down with CODECOPY.
      const start = init.length + 13;
      body.push2(runtime.length).push2(start).op(OP.PUSH0, OP.CODECOPY).push2(runtime.length).op(OP.PUSH0, OP.RETURN);
      return concat(init.build(), body.build(), runtime);
    }
    if (r < 7) init.push(0x6001).push(0).op(OP.RETURN);
    else if (r < 9) init.push(this.random.int(0x40)).push(0).op(OP.REVERT);
    else init.op(OP.STOP);
    return init.build();
  }

  private create(asm: Asm, depth: number): void {
    if (depth > 2) return;
    const code = this.initCode(depth);
    this.writeCode(asm, code);
    const size = this.random.chance(0.95) ? BigInt(code.length) : this.size();
    const value = this.random.chance(0.8) ? 0n : BigInt(this.random.int(3));
    if (this.random.chance(0.5)) asm.push(this.random.chance(0.5) ? BigInt(this.random.int(4)) : this.word()).push(size).push(INIT_AT).push(value).op(OP.CREATE2);
    else asm.push(size).push(INIT_AT).push(value).op(OP.CREATE);
    if (this.random.chance(0.6)) asm.push(CREATED_SLOT).op(OP.MSTORE);
    else asm.op(OP.POP);
  }

  /** A chunk jumped over, or not, by a condition read from calldata, storage or a constant. */
  private branch(asm: Asm, depth: number): void {
    const skip = asm.newLabel();
    switch (this.random.int(3)) {
      case 0:
        asm.push(this.random.int(0x60)).op(OP.CALLDATALOAD);
        break;
      case 1:
        asm.push(this.random.int(6)).op(OP.SLOAD);
        break;
      default:
        asm.push(this.random.int(2));
    }
    asm.pushLabel(skip).op(OP.JUMPI);
    this.chunk(asm, depth + 1);
    asm.mark(skip);
  }

  /** A chunk run 1–8 times, counted down on the stack. */
  private loop(asm: Asm, depth: number): void {
    if (depth > 1) return;
    const top = asm.newLabel();
    asm.push(1 + this.random.int(8)).mark(top);
    this.chunk(asm, depth + 1);
    asm.push(1).op(OP.SWAP1, OP.SUB, OP.DUP1).pushLabel(top).op(OP.JUMPI, OP.POP);
  }

  /** DUPn and SWAPn over a few pushed words, which are then dropped. */
  private stack(asm: Asm): void {
    const height = 1 + this.random.int(17);
    for (let i = 0; i < height; i++) asm.push(this.word());
    let extra = 0;
    for (let i = this.random.int(6); i > 0; i--) {
      if (this.random.chance(0.5)) {
        asm.op(OP.DUP1 + this.random.int(Math.min(16, height + extra)));
        extra++;
      } else if (height + extra > 1) {
        asm.op(OP.SWAP1 + this.random.int(Math.min(16, height + extra - 1)));
      }
    }
    for (let i = 0; i < height + extra; i++) asm.op(OP.POP);
  }

  /** Any byte as an opcode, after a few words: undefined opcodes, INVALID, a jump anywhere, PUSHes cut short. */
  private raw(asm: Asm): void {
    for (let i = this.random.int(8); i > 0; i--) asm.push(this.random.chance(0.5) ? BigInt(this.random.int(0x100)) : this.word());
    asm.bytes([this.random.int(256)]);
  }

  private ending(asm: Asm): void {
    switch (this.random.int(8)) {
      case 0:
        asm.op(OP.STOP);
        break;
      case 1:
      case 2:
        asm.push(this.random.chance(0.9) ? BigInt(this.random.int(0x80)) : this.size()).push(this.random.chance(0.9) ? BigInt(this.random.int(0x100)) : this.offset()).op(OP.RETURN);
        break;
      case 3:
        asm.push(this.random.int(0x80)).push(this.random.int(0x100)).op(OP.REVERT);
        break;
      case 4:
        asm.push(this.anyAddress()).op(OP.SELFDESTRUCT);
        break;
      case 5:
        asm.op(OP.INVALID);
        break;
      default:
      // off the end of the code
    }
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
