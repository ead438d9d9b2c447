// Calling the dev-node methods that anvil and Hardhat both name (anvil_setBalance, hardhat_setBalance …)
// from specs written once for both names, and the chain reads those specs check with.
import type { MethodName } from '../../generated/index.js';
import type { Block } from '../../generated/types.js';
import { startTestNode, type TestNode } from './node.js';

/** Which dev-node dialect a method name speaks. */
export type Dialect = 'anvil' | 'hardhat';

/** What a dialect answers for "done": anvil null, Hardhat true. */
export const done = (dialect: Dialect): null | true => (dialect === 'anvil' ? null : true);

/** `base` in `dialect`'s namespace: ('anvil', 'setBalance') → anvil_setBalance. */
export const methodOf = (dialect: Dialect, base: string): MethodName => `${dialect}_${base}` as MethodName;

/** Calls a method named at run time; the answer is checked against its result schema as `node.call` checks any. */
export function callAs(node: TestNode, method: MethodName, params: unknown[]): Promise<unknown> {
  return node.call(method, params as never) as Promise<unknown>;
}

export async function headNumber(node: TestNode): Promise<bigint> {
  return BigInt(await node.call('eth_blockNumber', []));
}

export async function blockAt(node: TestNode, tag: string): Promise<Block> {
  const block = await node.call('eth_getBlockByNumber', [tag, false]);
  if (block === null) throw new Error(`no block ${tag}`);
  return block;
}

export const hex = (n: bigint | number): `0x${string}` => `0x${BigInt(n).toString(16)}`;

/** An address no key is known for, distinct per test so tests on one node never share state. */
export const freshAddress = (n: number): `0x${string}` => `0x${n.toString(16).padStart(40, '0').replace(/^0/, 'a')}`;

/** A fresh node per test: these methods change the node for whatever runs after them. */
export function freshNode(options: Parameters<typeof startTestNode>[0] = {}) {
  const state: { node?: TestNode } = {};
  beforeEach(async () => {
    state.node = await startTestNode(options);
  });
  afterEach(() => state.node?.destroy());
  return {
    get node() {
      return state.node!;
    },
  };
}
