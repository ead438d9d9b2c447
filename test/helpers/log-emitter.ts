// A contract that emits exactly the logs its calldata describes, hand-assembled so the filter
// tests need no compiler. Calldata is a run of 192-byte records:
//   word 0: topic count k (0..4)   words 1..4: topics (the first k are used)   word 5: data
// and each record becomes one LOGk with those topics and the data word as its 32 bytes of data.
import type { Hex } from 'viem';
import { keccak256, toHex } from 'viem';

type Item = string | number | { push2: string } | { label: string };

const OP: Record<string, number> = {
  STOP: 0x00, ADD: 0x01, GT: 0x11, EQ: 0x14, ISZERO: 0x15, CALLDATALOAD: 0x35, CALLDATASIZE: 0x36,
  CODECOPY: 0x39, MSTORE: 0x52, JUMP: 0x56, JUMPI: 0x57, JUMPDEST: 0x5b, POP: 0x50,
  DUP1: 0x80, DUP2: 0x81, DUP3: 0x82, DUP4: 0x83, LOG0: 0xa0, LOG1: 0xa1, LOG2: 0xa2, LOG3: 0xa3, LOG4: 0xa4, RETURN: 0xf3,
};

/** A two-pass assembler: opcodes by name, PUSH1 of a number, PUSH2 of a label, JUMPDEST at a label. */
function assemble(items: Item[]): number[] {
  const labels = new Map<string, number>();
  let pc = 0;
  for (const item of items) {
    if (typeof item === 'object' && 'label' in item) labels.set(item.label, pc);
    pc += typeof item === 'string' ? 1 : typeof item === 'number' ? 2 : 'push2' in item ? 3 : 1;
  }
  const code: number[] = [];
  for (const item of items) {
    if (typeof item === 'string') {
      if (OP[item] === undefined) throw new Error(`unknown opcode ${item}`);
      code.push(OP[item]);
    } else if (typeof item === 'number') code.push(0x60, item);
    else if ('push2' in item) {
      const target = labels.get(item.push2);
      if (target === undefined) throw new Error(`unknown label ${item.push2}`);
      code.push(0x61, target >> 8, target & 0xff);
    } else {
      code.push(OP.JUMPDEST);
    }
  }
  return code;
}

const goto = (label: string): Item[] => [{ push2: label }, 'JUMP'];
/** Pushes word `n` of the current record, whose offset `dup` copies from the stack. */
const word = (n: number, dup: string): Item[] => [dup, n * 32, 'ADD', 'CALLDATALOAD'];

const RUNTIME = assemble([
  0, // ptr
  { label: 'loop' },
  'DUP1', 'CALLDATASIZE', 'GT', 'ISZERO', { push2: 'end' }, 'JUMPI',
  ...word(5, 'DUP1'), 0, 'MSTORE', // memory[0..32] = data word
  'DUP1', 'CALLDATALOAD', // ptr, k
  'DUP1', 'ISZERO', { push2: 'l0' }, 'JUMPI',
  'DUP1', 1, 'EQ', { push2: 'l1' }, 'JUMPI',
  'DUP1', 2, 'EQ', { push2: 'l2' }, 'JUMPI',
  'DUP1', 3, 'EQ', { push2: 'l3' }, 'JUMPI',
  ...goto('l4'),
  { label: 'l0' }, 'POP', 32, 0, 'LOG0', ...goto('next'),
  { label: 'l1' }, 'POP', ...word(1, 'DUP1'), 32, 0, 'LOG1', ...goto('next'),
  { label: 'l2' }, 'POP', ...word(2, 'DUP1'), ...word(1, 'DUP2'), 32, 0, 'LOG2', ...goto('next'),
  { label: 'l3' }, 'POP', ...word(3, 'DUP1'), ...word(2, 'DUP2'), ...word(1, 'DUP3'), 32, 0, 'LOG3', ...goto('next'),
  { label: 'l4' }, 'POP', ...word(4, 'DUP1'), ...word(3, 'DUP2'), ...word(2, 'DUP3'), ...word(1, 'DUP4'), 32, 0, 'LOG4',
  { label: 'next' },
  0xc0, 'ADD', ...goto('loop'),
  { label: 'end' }, 'STOP',
]);

function initcode(runtime: number[]): Hex {
  const n = runtime.length;
  // PUSH2 n, PUSH2 15 (this prefix's length), PUSH1 0, CODECOPY, PUSH2 n, PUSH1 0, RETURN
  const prefix = [0x61, n >> 8, n & 0xff, 0x61, 0, 15, 0x60, 0, 0x39, 0x61, n >> 8, n & 0xff, 0x60, 0, 0xf3];
  return toHex(Uint8Array.from([...prefix, ...runtime]));
}

/** Creation code of the log emitter. */
export const LOG_EMITTER_INITCODE: Hex = initcode(RUNTIME);
export const LOG_EMITTER_RUNTIME: Hex = toHex(Uint8Array.from(RUNTIME));

export interface EmittedLog {
  topics: Hex[];
  /** one 32-byte word */
  data: bigint;
}

const pad = (value: bigint | Hex) => (typeof value === 'bigint' ? value.toString(16) : value.slice(2)).padStart(64, '0');

/** Calldata that makes the emitter emit `logs`, in order. */
export function emitCalldata(logs: readonly EmittedLog[]): Hex {
  let out = '0x';
  for (const { topics, data } of logs) {
    if (topics.length > 4) throw new Error('at most 4 topics');
    out += pad(BigInt(topics.length));
    for (let i = 0; i < 4; i++) out += pad(topics[i] ?? '0x0');
    out += pad(data);
  }
  return out as Hex;
}

/** Gas enough for `count` logs of up to 4 topics. */
export const emitGas = (count: number): bigint => 60_000n + BigInt(count) * 12_000n;

/** `event Ping(uint256 indexed id, uint256 value)`, for clients that decode events by ABI. */
export const PING_ABI = [
  {
    type: 'event',
    name: 'Ping',
    anonymous: false,
    inputs: [
      { name: 'id', type: 'uint256', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
    ],
  },
] as const;
export const PING_TOPIC: Hex = keccak256(toHex('Ping(uint256,uint256)'));

/** A Ping(id, value) log. */
export const ping = (id: bigint, value: bigint): EmittedLog => ({ topics: [PING_TOPIC, `0x${pad(id)}`], data: value });
