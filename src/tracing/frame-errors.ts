// How a frame's end reads in geth's words: the EVM's error translated, or the gas or stack check its
// last opcode failed before it ran (the EVM emits a step before it charges, so that failure is only
// known when the frame ends).
import type { EVMError } from '@ethereumjs/evm';
import { opcodeName, stackFault } from './opcodes.js';
import type { FrameType } from './trace-hooks.js';

/** What the hooks keep of a frame's last opcode, to report it when it failed before it ran. */
export interface LastStep {
  op: number;
  gas: bigint;
  cost: bigint;
  fee: bigint;
  stackDepth: number;
}

/** geth's words for an EVM error that ends a frame (not one of the gas or stack checks). */
export function gethError(error: EVMError, frame: { type: FrameType; last?: LastStep }): string {
  // The EVM may append where it happened ("invalid JUMP at <code hash>/<address>:<pc>").
  switch (error.error.replace(/ at .*$/s, '')) {
    case 'out of gas':
      // The frame's last opcode ran; a creation that then cannot pay for its code fails here.
      return frame.type === 'CREATE' || frame.type === 'CREATE2' ? 'contract creation code storage out of gas' : 'out of gas';
    case 'code store out of gas':
      return 'contract creation code storage out of gas';
    case 'revert':
      return 'execution reverted';
    case 'invalid opcode':
      return `invalid opcode: ${opcodeName(frame.last?.op ?? 0xfe)}`;
    case 'invalid JUMP':
      return 'invalid jump destination';
    case 'static state change':
      return 'write protection';
    case 'value out of range':
      return 'return data out of bounds';
    case 'create collision':
      return 'contract address collision';
    case 'code size to deposit exceeds maximum code size':
      return 'max code size exceeded';
    case 'invalid bytecode deployed':
      return 'invalid code: must not begin with 0xef';
    case 'initcode exceeds max initcode size':
      return 'max initcode size exceeded';
    case 'insufficient balance':
      return 'insufficient balance for transfer';
    default:
      return error.error;
  }
}

/** When the frame's last opcode failed before it ran (geth's gas and stack checks): the error and the cost geth reports. */
export function checkFault(last: LastStep | undefined, error: EVMError): { error: string; cost: bigint } | undefined {
  if (last === undefined) return undefined;
  const stack = stackFault(last.op, last.stackDepth);
  if (stack !== undefined) return { error: stack, cost: last.fee };
  // geth charges the constant part first: an opcode that cannot pay even that reports only it.
  if (error.error === 'out of gas' && last.gas < last.cost) return { error: 'out of gas', cost: last.gas < last.fee ? last.fee : last.cost };
  return undefined;
}
