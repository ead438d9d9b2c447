import type { Handlers } from '../services.js';

type Aliased = 'evm_setAutomine' | 'evm_setIntervalMining' | 'evm_snapshot' | 'evm_revert' | 'evm_increaseTime';
type Alias = 'anvil_setAutomine' | 'anvil_setIntervalMining' | 'anvil_snapshot' | 'anvil_revert' | 'anvil_increaseTime';

/**
 * anvil's names for evm_ methods, in one table: each runs the evm_ method's handler, its params and its
 * answer put as anvil puts them (anvil_setIntervalMining takes seconds where evm_setIntervalMining takes
 * milliseconds, as Hardhat's does; anvil answers null where Hardhat answers true, and a number of seconds
 * where it answers a decimal string).
 */
const ALIASES: { [A in Alias]: { of: Aliased; params?: (params: Parameters<Handlers[A]>[0]) => unknown[]; answer?: (result: unknown) => Awaited<ReturnType<Handlers[A]>> } } = {
  anvil_setAutomine: { of: 'evm_setAutomine', answer: () => null },
  anvil_setIntervalMining: { of: 'evm_setIntervalMining', params: ([seconds]) => [seconds * 1000], answer: () => null },
  anvil_snapshot: { of: 'evm_snapshot' },
  anvil_revert: { of: 'evm_revert' },
  anvil_increaseTime: { of: 'evm_increaseTime', answer: (offset) => Number(offset) },
};

/** The aliases' handlers, over `methods`' evm_ ones. */
export function anvilAliases(methods: Pick<Handlers, Aliased>): Pick<Handlers, Alias> {
  const aliases: Record<string, unknown> = {};
  for (const [name, { of, params, answer }] of Object.entries(ALIASES) as [Alias, (typeof ALIASES)[Alias]][]) {
    const target = methods[of] as (params: unknown[], ctx: unknown) => Promise<unknown>;
    aliases[name] = async (given: unknown[], ctx: unknown) => {
      const result = await target(params === undefined ? given : (params as (p: unknown[]) => unknown[])(given), ctx);
      return answer === undefined ? result : (answer as (r: unknown) => unknown)(result);
    };
  }
  return aliases as Pick<Handlers, Alias>;
}
