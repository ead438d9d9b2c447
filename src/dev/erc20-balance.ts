// anvil_dealERC20: an account's balance of an ERC-20 token set by finding the storage slot its balanceOf reads
// and writing it, as anvil does (the token's code is not known, so the slot is found by running it).
import type { Block } from '@ethereumjs/block';
import { bigIntToBytes, bytesToBigInt, bytesToHex, setLengthLeft, type Address } from '@ethereumjs/util';
import { faultOf, type Executor } from '../state/execution.js';
import { observe } from '../tracing/evm-hooks.js';
import { Op } from '../tracing/opcodes.js';
import type { StateEditor } from './state-edits.js';

/** No storage slot of the token, written, makes its balanceOf answer the amount (anvil's words). */
export class Erc20SlotNotFound extends Error {
  constructor() {
    super('Unable to set ERC20 balance, no slot found');
    this.name = 'Erc20SlotNotFound';
  }
}

/** balanceOf(address)'s selector. */
const BALANCE_OF = '0x70a08231';

const word = (value: bigint) => bytesToHex(setLengthLeft(bigIntToBytes(value), 32));

export class Erc20Balances {
  constructor(
    private readonly executor: Executor,
    private readonly editor: StateEditor,
    private readonly head: () => Block,
  ) {}

  /**
   * Makes `token`'s balanceOf(`holder`) answer `amount`: of the token's slots balanceOf reads, the first that
   * makes it answer `amount` when overridden is written (anvil tries them the same way).
   */
  async deal(holder: Address, token: Address, amount: bigint): Promise<void> {
    const call = { to: token.toString(), input: `${BALANCE_OF}${bytesToHex(setLengthLeft(holder.bytes, 32)).slice(2)}` };
    for (const slot of await this.slotsRead(call, token)) {
      const answer = await this.executor.call(call, this.head(), { state: { [token.toString()]: { stateDiff: { [slot]: word(amount) } } } }).catch(() => undefined);
      if (answer !== undefined && answer.length === 32 && bytesToBigInt(answer) === amount) {
        await this.editor.setStorage(token, setLengthLeft(bigIntToBytes(BigInt(slot)), 32), setLengthLeft(bigIntToBytes(amount), 32));
        return;
      }
    }
    throw new Erc20SlotNotFound();
  }

  /** The slots of `token` the call reads, in the order it first reads them. */
  private async slotsRead(call: { to: string; input: string }, token: Address): Promise<string[]> {
    const slots = new Set<string>();
    const run = await this.executor.prepare(call, this.head());
    try {
      const outcome = await run(undefined, async (vm, execute) => {
        const stop = observe(vm, {
          onOpcode: ({ op, stack, address }) => {
            if (op === Op.SLOAD && stack.length >= 1 && address.equals(token)) slots.add(word(stack[stack.length - 1]!));
          },
        });
        try {
          return await execute();
        } finally {
          stop();
        }
      });
      if (faultOf(outcome) !== undefined) return [];
    } finally {
      run.release();
    }
    return [...slots];
  }
}
