// Opcode names as geth's tracers print them, whatever the fork: one name per byte (0x44 stays
// DIFFICULTY after the merge, 0x20 is KECCAK256), and `opcode 0xNN not defined` for a byte that
// names no opcode. @ethereumjs/evm names some bytes otherwise, so traces take their names from here.

const NAMED: Record<number, string> = {
  0x00: 'STOP', 0x01: 'ADD', 0x02: 'MUL', 0x03: 'SUB', 0x04: 'DIV', 0x05: 'SDIV', 0x06: 'MOD', 0x07: 'SMOD',
  0x08: 'ADDMOD', 0x09: 'MULMOD', 0x0a: 'EXP', 0x0b: 'SIGNEXTEND',
  0x10: 'LT', 0x11: 'GT', 0x12: 'SLT', 0x13: 'SGT', 0x14: 'EQ', 0x15: 'ISZERO', 0x16: 'AND', 0x17: 'OR',
  0x18: 'XOR', 0x19: 'NOT', 0x1a: 'BYTE', 0x1b: 'SHL', 0x1c: 'SHR', 0x1d: 'SAR', 0x1e: 'CLZ',
  0x20: 'KECCAK256',
  0x30: 'ADDRESS', 0x31: 'BALANCE', 0x32: 'ORIGIN', 0x33: 'CALLER', 0x34: 'CALLVALUE', 0x35: 'CALLDATALOAD',
  0x36: 'CALLDATASIZE', 0x37: 'CALLDATACOPY', 0x38: 'CODESIZE', 0x39: 'CODECOPY', 0x3a: 'GASPRICE',
  0x3b: 'EXTCODESIZE', 0x3c: 'EXTCODECOPY', 0x3d: 'RETURNDATASIZE', 0x3e: 'RETURNDATACOPY', 0x3f: 'EXTCODEHASH',
  0x40: 'BLOCKHASH', 0x41: 'COINBASE', 0x42: 'TIMESTAMP', 0x43: 'NUMBER', 0x44: 'DIFFICULTY', 0x45: 'GASLIMIT',
  0x46: 'CHAINID', 0x47: 'SELFBALANCE', 0x48: 'BASEFEE', 0x49: 'BLOBHASH', 0x4a: 'BLOBBASEFEE', 0x4b: 'SLOTNUM',
  0x50: 'POP', 0x51: 'MLOAD', 0x52: 'MSTORE', 0x53: 'MSTORE8', 0x54: 'SLOAD', 0x55: 'SSTORE', 0x56: 'JUMP',
  0x57: 'JUMPI', 0x58: 'PC', 0x59: 'MSIZE', 0x5a: 'GAS', 0x5b: 'JUMPDEST', 0x5c: 'TLOAD', 0x5d: 'TSTORE',
  0x5e: 'MCOPY', 0x5f: 'PUSH0',
  0xd0: 'DATALOAD', 0xd1: 'DATALOADN', 0xd2: 'DATASIZE', 0xd3: 'DATACOPY',
  0xe0: 'RJUMP', 0xe1: 'RJUMPI', 0xe2: 'RJUMPV', 0xe3: 'CALLF', 0xe4: 'RETF', 0xe5: 'JUMPF', 0xe6: 'DUPN',
  0xe7: 'SWAPN', 0xe8: 'EXCHANGE', 0xec: 'EOFCREATE', 0xee: 'RETURNCONTRACT',
  0xf0: 'CREATE', 0xf1: 'CALL', 0xf2: 'CALLCODE', 0xf3: 'RETURN', 0xf4: 'DELEGATECALL', 0xf5: 'CREATE2',
  0xf7: 'RETURNDATALOAD', 0xf8: 'EXTCALL', 0xf9: 'EXTDELEGATECALL', 0xfa: 'STATICCALL', 0xfb: 'EXTSTATICCALL',
  0xfd: 'REVERT', 0xfe: 'INVALID', 0xff: 'SELFDESTRUCT',
};

const NAMES: string[] = Array.from({ length: 256 }, (_, op) => {
  if (op >= 0x60 && op <= 0x7f) return `PUSH${op - 0x5f}`;
  if (op >= 0x80 && op <= 0x8f) return `DUP${op - 0x7f}`;
  if (op >= 0x90 && op <= 0x9f) return `SWAP${op - 0x8f}`;
  if (op >= 0xa0 && op <= 0xa4) return `LOG${op - 0xa0}`;
  return NAMED[op] ?? `opcode 0x${op.toString(16)} not defined`;
});

export const opcodeName = (op: number): string => NAMES[op];

// How many stack items each opcode takes and leaves ([pops, pushes]); what geth's stack checks
// (and their messages) are made of. Bytes not listed take and leave nothing.
const ARITY: Record<number, [number, number]> = {
  0x01: [2, 1], 0x02: [2, 1], 0x03: [2, 1], 0x04: [2, 1], 0x05: [2, 1], 0x06: [2, 1], 0x07: [2, 1],
  0x08: [3, 1], 0x09: [3, 1], 0x0a: [2, 1], 0x0b: [2, 1],
  0x10: [2, 1], 0x11: [2, 1], 0x12: [2, 1], 0x13: [2, 1], 0x14: [2, 1], 0x15: [1, 1], 0x16: [2, 1], 0x17: [2, 1],
  0x18: [2, 1], 0x19: [1, 1], 0x1a: [2, 1], 0x1b: [2, 1], 0x1c: [2, 1], 0x1d: [2, 1], 0x1e: [1, 1],
  0x20: [2, 1],
  0x30: [0, 1], 0x31: [1, 1], 0x32: [0, 1], 0x33: [0, 1], 0x34: [0, 1], 0x35: [1, 1], 0x36: [0, 1], 0x37: [3, 0],
  0x38: [0, 1], 0x39: [3, 0], 0x3a: [0, 1], 0x3b: [1, 1], 0x3c: [4, 0], 0x3d: [0, 1], 0x3e: [3, 0], 0x3f: [1, 1],
  0x40: [1, 1], 0x41: [0, 1], 0x42: [0, 1], 0x43: [0, 1], 0x44: [0, 1], 0x45: [0, 1], 0x46: [0, 1], 0x47: [0, 1],
  0x48: [0, 1], 0x49: [1, 1], 0x4a: [0, 1], 0x4b: [0, 1],
  0x50: [1, 0], 0x51: [1, 1], 0x52: [2, 0], 0x53: [2, 0], 0x54: [1, 1], 0x55: [2, 0], 0x56: [1, 0], 0x57: [2, 0],
  0x58: [0, 1], 0x59: [0, 1], 0x5a: [0, 1], 0x5c: [1, 1], 0x5d: [2, 0], 0x5e: [3, 0], 0x5f: [0, 1],
  0xf0: [3, 1], 0xf1: [7, 1], 0xf2: [7, 1], 0xf3: [2, 0], 0xf4: [6, 1], 0xf5: [4, 1], 0xfa: [6, 1], 0xfd: [2, 0],
  0xff: [1, 0],
};

const STACK_LIMIT = 1024;

function arity(op: number): [number, number] {
  if (op >= 0x60 && op <= 0x7f) return [0, 1];
  if (op >= 0x80 && op <= 0x8f) return [op - 0x7f, op - 0x7e];
  if (op >= 0x90 && op <= 0x9f) return [op - 0x8e, op - 0x8e];
  if (op >= 0xa0 && op <= 0xa4) return [op - 0x9e, 0];
  return ARITY[op] ?? [0, 0];
}

/** geth's message when `op` cannot run on a stack of `depth` items, or undefined when it can. */
export function stackFault(op: number, depth: number): string | undefined {
  const [pops, pushes] = arity(op);
  if (depth < pops) return `stack underflow (${depth} <=> ${pops})`;
  const limit = STACK_LIMIT + pops - pushes;
  if (depth > limit) return `stack limit reached ${depth} (${limit})`;
  return undefined;
}

export const Op = {
  BALANCE: 0x31,
  EXTCODESIZE: 0x3b,
  EXTCODECOPY: 0x3c,
  EXTCODEHASH: 0x3f,
  SLOAD: 0x54,
  SSTORE: 0x55,
  LOG0: 0xa0,
  LOG4: 0xa4,
  CREATE: 0xf0,
  CALL: 0xf1,
  CALLCODE: 0xf2,
  DELEGATECALL: 0xf4,
  CREATE2: 0xf5,
  STATICCALL: 0xfa,
  REVERT: 0xfd,
  SELFDESTRUCT: 0xff,
} as const;
