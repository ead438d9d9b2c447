// A small assembler for generated programs: opcodes, pushes of the smallest width, and forward or
// backward jumps to labels (PUSH2 of the label's JUMPDEST, filled in at the end).

export const OP = {
  STOP: 0x00, ADD: 0x01, MUL: 0x02, SUB: 0x03, DIV: 0x04, SDIV: 0x05, MOD: 0x06, SMOD: 0x07, ADDMOD: 0x08, MULMOD: 0x09, EXP: 0x0a, SIGNEXTEND: 0x0b,
  LT: 0x10, GT: 0x11, SLT: 0x12, SGT: 0x13, EQ: 0x14, ISZERO: 0x15, AND: 0x16, OR: 0x17, XOR: 0x18, NOT: 0x19, BYTE: 0x1a, SHL: 0x1b, SHR: 0x1c, SAR: 0x1d, CLZ: 0x1e,
  KECCAK256: 0x20,
  ADDRESS: 0x30, BALANCE: 0x31, ORIGIN: 0x32, CALLER: 0x33, CALLVALUE: 0x34, CALLDATALOAD: 0x35, CALLDATASIZE: 0x36, CALLDATACOPY: 0x37, CODESIZE: 0x38,
  CODECOPY: 0x39, GASPRICE: 0x3a, EXTCODESIZE: 0x3b, EXTCODECOPY: 0x3c, RETURNDATASIZE: 0x3d, RETURNDATACOPY: 0x3e, EXTCODEHASH: 0x3f,
  BLOCKHASH: 0x40, COINBASE: 0x41, TIMESTAMP: 0x42, NUMBER: 0x43, PREVRANDAO: 0x44, GASLIMIT: 0x45, CHAINID: 0x46, SELFBALANCE: 0x47, BASEFEE: 0x48,
  BLOBHASH: 0x49, BLOBBASEFEE: 0x4a,
  POP: 0x50, MLOAD: 0x51, MSTORE: 0x52, MSTORE8: 0x53, SLOAD: 0x54, SSTORE: 0x55, JUMP: 0x56, JUMPI: 0x57, PC: 0x58, MSIZE: 0x59, GAS: 0x5a,
  JUMPDEST: 0x5b, TLOAD: 0x5c, TSTORE: 0x5d, MCOPY: 0x5e, PUSH0: 0x5f, PUSH1: 0x60, PUSH2: 0x61, PUSH32: 0x7f, DUP1: 0x80, SWAP1: 0x90,
  LOG0: 0xa0, CREATE: 0xf0, CALL: 0xf1, CALLCODE: 0xf2, RETURN: 0xf3, DELEGATECALL: 0xf4, CREATE2: 0xf5, STATICCALL: 0xfa, REVERT: 0xfd,
  INVALID: 0xfe, SELFDESTRUCT: 0xff,
} as const;

export class Asm {
  private readonly code: number[] = [];
  private readonly marks: (number | undefined)[] = [];
  private readonly fixups: { at: number; label: number }[] = [];

  get length(): number {
    return this.code.length;
  }

  op(...codes: number[]): this {
    this.code.push(...codes);
    return this;
  }

  /** PUSH0 for zero (or PUSH1 0), else the narrowest PUSHn. */
  push(value: bigint | number, wide = false): this {
    let v = BigInt(value) & ((1n << 256n) - 1n);
    if (v === 0n && !wide) return this.op(OP.PUSH0);
    const bytes: number[] = [];
    while (v > 0n) {
      bytes.unshift(Number(v & 0xffn));
      v >>= 8n;
    }
    if (bytes.length === 0) bytes.push(0);
    return this.op(OP.PUSH1 + bytes.length - 1, ...bytes);
  }

  /** PUSH2 of a value below 65,536: a push of known length. */
  push2(value: number): this {
    return this.op(OP.PUSH2, (value >> 8) & 0xff, value & 0xff);
  }

  /** Raw bytes as they are (data, or an opcode with its immediates). */
  bytes(data: Uint8Array | number[]): this {
    for (const byte of data) this.code.push(byte);
    return this;
  }

  newLabel(): number {
    this.marks.push(undefined);
    return this.marks.length - 1;
  }

  /** A JUMPDEST here, for `label`. */
  mark(label: number): this {
    this.marks[label] = this.code.length;
    return this.op(OP.JUMPDEST);
  }

  pushLabel(label: number): this {
    this.fixups.push({ at: this.code.length + 1, label });
    return this.op(OP.PUSH2, 0, 0);
  }

  build(): Uint8Array {
    const out = Uint8Array.from(this.code);
    for (const { at, label } of this.fixups) {
      const target = this.marks[label] ?? 0xffff;
      out[at] = target >> 8;
      out[at + 1] = target & 0xff;
    }
    return out;
  }
}
