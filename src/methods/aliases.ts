// The anvil_, hardhat_ and evm_ names that do one method's work under another name, in one table.
// The rule: such a name has no file of its own. Its entry names the method whose file does the work
// (evm_'s where one exists, else anvil_'s: hardhat_ names are aliases of anvil_'s) and how the alias
// puts its params and its answer: anvil answers null where Hardhat answers true, Hardhat's
// setIntervalMining takes milliseconds where anvil's takes seconds, and so on. A name whose work
// differs (hardhat_dropTransaction refuses a mined transaction; hardhat_stopImpersonatingAccount
// answers whether there was one) has a file of its own.
import type { MethodName, MethodParams, MethodResults } from '../../generated/methods.js';
import type { Handlers } from './services.js';

interface AliasOf<A extends MethodName> {
  of: MethodName;
  /** the alias's params as the method takes them; as given when absent */
  params?: (params: MethodParams[A]) => unknown[];
  /** the method's answer as the alias gives it; as answered when absent */
  answer?: (result: never) => MethodResults[A];
}

const answerNull = () => null;
const answerTrue = () => true as const;

export const ALIASES = {
  anvil_setAutomine: { of: 'evm_setAutomine', answer: answerNull },
  anvil_setIntervalMining: { of: 'evm_setIntervalMining', params: ([seconds]) => [seconds * 1000], answer: answerNull },
  anvil_snapshot: { of: 'evm_snapshot' },
  anvil_revert: { of: 'evm_revert' },
  anvil_increaseTime: { of: 'evm_increaseTime', answer: (offset: string) => Number(offset) },
  hardhat_mine: { of: 'anvil_mine', answer: answerTrue },
  hardhat_getAutomine: { of: 'anvil_getAutomine' },
  hardhat_removeBlockTimestampInterval: { of: 'anvil_removeBlockTimestampInterval' },
  hardhat_setBalance: { of: 'anvil_setBalance', answer: answerTrue },
  hardhat_setCode: { of: 'anvil_setCode', answer: answerTrue },
  hardhat_setNonce: { of: 'anvil_setNonce', answer: answerTrue },
  hardhat_setStorageAt: { of: 'anvil_setStorageAt' },
  hardhat_impersonateAccount: { of: 'anvil_impersonateAccount', answer: answerTrue },
  hardhat_setNextBlockBaseFeePerGas: { of: 'anvil_setNextBlockBaseFeePerGas', answer: answerTrue },
  hardhat_setCoinbase: { of: 'anvil_setCoinbase', answer: answerTrue },
  hardhat_setMinGasPrice: { of: 'anvil_setMinGasPrice', answer: answerTrue },
  hardhat_dumpState: { of: 'anvil_dumpState' },
  hardhat_loadState: { of: 'anvil_loadState' },
  hardhat_reset: { of: 'anvil_reset', answer: answerTrue },
  hardhat_setLoggingEnabled: { of: 'anvil_setLoggingEnabled', answer: answerTrue },
  hardhat_setRpcUrl: { of: 'anvil_setRpcUrl', answer: answerTrue },
} satisfies { [A in MethodName]?: AliasOf<A> };

export type Alias = keyof typeof ALIASES;
/** A method with a file of its own: src/methods/<namespace>/<method>.ts. */
export type Canonical = Exclude<MethodName, Alias>;

type Handler = (params: unknown[], ctx: unknown) => Promise<unknown>;

/** The aliases' handlers, each over its method's handler in `methods`. */
export function aliasHandlers(methods: Pick<Handlers, Canonical>): Pick<Handlers, Alias> {
  const aliases: Record<string, Handler> = {};
  for (const [name, alias] of Object.entries(ALIASES) as [Alias, AliasOf<Alias>][]) {
    const run = methods[alias.of as Canonical] as Handler;
    const params = alias.params as ((params: unknown[]) => unknown[]) | undefined;
    const answer = alias.answer as ((result: unknown) => unknown) | undefined;
    aliases[name] = async (given, ctx) => {
      const result = await run(params === undefined ? given : params(given), ctx);
      return answer === undefined ? result : answer(result);
    };
  }
  return aliases as unknown as Pick<Handlers, Alias>;
}
