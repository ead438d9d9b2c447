// Every method as the first request a freshly started node process answers. What a node loads on
// first use (the VM library and the parameters it brings, the contract, the bundle's chunks) is
// loaded once per process: a method that only works once something else has loaded it answers its
// first caller wrongly, and a fuzz on one warm node never sees it (the first eth_simulateV1 after a
// start answered -32603 so). Methods go in small groups, each group to a node process of its own,
// whose first requests are the group's baseline calls (each method's first example's params, values
// for a fresh dev chain), sent at once, so each reaches a node that has loaded nothing yet; the
// resets, which replace the chain under the others' feet, go alone. Each answer: a JSON-RPC answer,
// never -32603, a result within the contract, and nothing logged as unhandled.
import { expect } from 'chai';
import { methodNames, type MethodName } from '../../generated/index.js';
import { loadContract } from '../../src/contract.js';
import { declaredErrors } from '../../tools/contract/diff/diff.js';
import { spawnNode } from '../helpers/child-node.js';
import { problemWith, send } from '../helpers/fuzz-answers.js';
import { baselineCall, methodOf } from '../helpers/fuzz-inputs.js';

/** A first request may load what the node defers (~0.1-0.5 s): generous, as the machine may be busy. */
const COLD_SLOW_MS = 15_000;
/** Methods whose first requests one node process answers, and node processes started at once. */
const GROUP = 4;
const AT_ONCE = 2;
const ALONE = new Set<MethodName>(['anvil_reset', 'hardhat_reset']);

function groupsOf(methods: readonly MethodName[]): MethodName[][] {
  const groups: MethodName[][] = methods.filter((method) => ALONE.has(method)).map((method) => [method]);
  const rest = methods.filter((method) => !ALONE.has(method));
  for (let at = 0; at < rest.length; at += GROUP) groups.push(rest.slice(at, at + GROUP));
  return groups;
}

async function eachAtMost<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

describe('every method as the first request of a freshly started node process', function () {
  this.timeout(300_000);
  const contract = loadContract();

  /** What is wrong with the first answers to `methods` on a node process of their own. */
  async function coldProblems(methods: readonly MethodName[]): Promise<string[]> {
    const node = await spawnNode(undefined);
    try {
      const answers = await Promise.all(methods.map((method) => send(node.url, method, baselineCall(contract, method))));
      const problems = methods.flatMap((method, i) => {
        const declared = new Set([...declaredErrors(contract, methodOf(contract, method)).keys()]);
        const problem = problemWith(method, answers[i]!, declared, COLD_SLOW_MS);
        return problem === undefined ? [] : [`${method}: ${problem}`];
      });
      if (/unhandled error/.test(node.stderr())) problems.push(`${methods.join(', ')}: logged ${node.stderr().slice(0, 400)}`);
      return problems;
    } finally {
      await node.stop();
    }
  }

  const namespaces = [...new Set(methodNames.map((name) => name.split('_')[0]!))];
  for (const namespace of namespaces) {
    const methods = methodNames.filter((name) => name.split('_')[0] === namespace);
    it(`${namespace}: each of its ${methods.length} methods answers its first request properly`, async () => {
      const problems: string[] = [];
      await eachAtMost(groupsOf(methods), AT_ONCE, async (group) => {
        problems.push(...(await coldProblems(group)));
      });
      expect(problems.sort(), problems.join('\n')).to.deep.equal([]);
    });
  }
});
