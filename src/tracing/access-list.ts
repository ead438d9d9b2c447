// eth_createAccessList as geth makes it: run the transaction, collect what it touches (an access-list
// tracer), run it again with that list, until the list stays the same.
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { bigIntToBytes, bytesToHex, createAddressFromString, createZeroAddress, generateAddress, setLengthLeft, type Address } from '@ethereumjs/util';
import type { AccessListResult, StateOverride, TransactionCall } from '../../generated/types.js';
import { SUGGESTED_TIP } from '../fees/fees.js';
import { CallFailure, faultOf, type Executor } from '../state/execution.js';
import type { CallOverrides } from '../state/overrides.js';
import { loadEvmLibrary } from '../state/vm.js';
import { observe } from './evm-hooks.js';
import type { OpcodeStep, TraceHooks } from './trace-hooks.js';
import { Op } from './opcodes.js';

/** address → slots, as the list grows; addresses and slots in lowercase hex. */
type Touched = Map<string, Set<string>>;

const word = (value: bigint) => bytesToHex(setLengthLeft(bigIntToBytes(value), 32));
const addressOf = (value: bigint) => bytesToHex(setLengthLeft(bigIntToBytes(value), 32).subarray(12));

/** geth's access-list tracer: the slots every contract reads or writes, and the accounts it looks at or calls (unless excluded). */
function accessListTracer(touched: Touched, excluded: Set<string>): TraceHooks {
  const add = (address: string, slot?: string) => {
    const slots = touched.get(address) ?? new Set<string>();
    touched.set(address, slots);
    if (slot !== undefined) slots.add(slot);
  };
  return {
    onOpcode: ({ op, stack, address }: OpcodeStep) => {
      const top = stack.length - 1;
      if ((op === Op.SLOAD || op === Op.SSTORE) && stack.length >= 1) add(address.toString(), word(stack[top]));
      const account =
        (op === Op.EXTCODECOPY || op === Op.EXTCODEHASH || op === Op.EXTCODESIZE || op === Op.BALANCE || op === Op.SELFDESTRUCT) && stack.length >= 1
          ? addressOf(stack[top])
          : (op === Op.DELEGATECALL || op === Op.CALL || op === Op.STATICCALL || op === Op.CALLCODE) && stack.length >= 5
            ? addressOf(stack[top - 1])
            : undefined;
      if (account !== undefined && !excluded.has(account)) add(account);
    },
  };
}

/** The list as a transaction carries it: accounts in address order, slots in order. */
function accessListOf(touched: Touched): { address: string; storageKeys: string[] }[] {
  return [...touched.keys()].sort().map((address) => ({ address, storageKeys: [...touched.get(address)!].sort() }));
}

const sameList = (a: Touched, b: Touched) => a.size === b.size && [...a].every(([address, slots]) => b.get(address)?.size === slots.size && [...slots].every((s) => b.get(address)!.has(s)));

/** geth's fee defaults for an access list's transaction: the node's suggested tip, and a fee cap of twice the base fee above it. */
function withFeeDefaults(request: TransactionCall, block: Block, common: Common): TransactionCall {
  if (request.gasPrice !== undefined) {
    if (BigInt(request.gasPrice) === 0n && common.isActivatedEIP(1559)) throw new CallFailure({ kind: 'invalid', message: 'gasPrice must be non-zero after london fork' });
    return request;
  }
  if (!common.isActivatedEIP(1559)) return { ...request, gasPrice: `0x${SUGGESTED_TIP.toString(16)}` };
  const tip = request.maxPriorityFeePerGas === undefined ? SUGGESTED_TIP : BigInt(request.maxPriorityFeePerGas);
  const cap = request.maxFeePerGas === undefined ? tip + 2n * (block.header.baseFeePerGas ?? 0n) : BigInt(request.maxFeePerGas);
  if (request.maxFeePerGas !== undefined && request.maxPriorityFeePerGas !== undefined && cap === 0n) throw new CallFailure({ kind: 'invalid', message: 'maxFeePerGas must be non-zero' });
  if (cap < tip) throw new CallFailure({ kind: 'invalid', message: `maxFeePerGas (${cap}) < maxPriorityFeePerGas (${tip})` });
  return { ...request, maxFeePerGas: `0x${cap.toString(16)}`, maxPriorityFeePerGas: `0x${tip.toString(16)}` };
}

/**
 * The access list `request` needs on `block`'s state (with `stateOverrides`), the gas it uses with
 * it, and why it fails, if it does.
 */
export async function createAccessList(executor: Executor, request: TransactionCall, block: Block, common: Common, stateOverrides?: StateOverride): Promise<AccessListResult> {
  const priced = withFeeDefaults(request, block, common);
  const overrides: CallOverrides | undefined = stateOverrides === undefined ? undefined : { state: stateOverrides };
  const from = request.from === undefined ? createZeroAddress() : createAddressFromString(request.from);
  const nonce = await senderNonce(executor, block, from, overrides);
  const to = request.to ? request.to.toLowerCase() : bytesToHex(generateAddress(from.bytes, bigIntToBytes(nonce)));
  // Neither the sender, nor the recipient, nor the precompiles are worth listing: they are warm anyway.
  const excluded = new Set<string>([from.toString(), to, ...[...(await loadEvmLibrary()).getActivePrecompiles(common).keys()].map((a) => `0x${a}`)]);
  let list: Touched = new Map();
  for (const entry of request.accessList ?? []) {
    const address = entry.address.toLowerCase();
    if (excluded.has(address)) continue;
    list.set(address, new Set(entry.storageKeys.map((key) => key.toLowerCase())));
  }
  for (;;) {
    const run = await executor.prepare({ ...priced, accessList: accessListOf(list) }, block, overrides);
    const touched: Touched = new Map([...list].map(([address, slots]) => [address, new Set(slots)]));
    let outcome;
    try {
      outcome = await run(undefined, async (vm, execute) => {
        const stop = observe(vm, accessListTracer(touched, excluded));
        try {
          return await execute();
        } finally {
          stop();
        }
      });
    } finally {
      run.release();
    }
    if (outcome.invalid !== undefined) throw new CallFailure({ kind: 'invalid', message: `failed to apply transaction: ${outcome.invalid}` });
    if (sameList(touched, list)) {
      const fault = faultOf(outcome);
      return {
        accessList: accessListOf(list),
        error: fault === undefined ? undefined : fault.kind === 'revert' ? 'execution reverted' : fault.message,
        gasUsed: `0x${outcome.result!.totalGasSpent.toString(16)}`,
      };
    }
    list = touched;
  }
}

/** The sender's nonce at `block` (with overrides): where a creation's contract would land. */
async function senderNonce(executor: Executor, block: Block, from: Address, overrides: CallOverrides | undefined): Promise<bigint> {
  const run = await executor.prepare({ from: from.toString() }, block, overrides);
  run.release();
  return run.nonce;
}
