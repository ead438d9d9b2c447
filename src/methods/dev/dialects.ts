/**
 * The anvil_ and hardhat_ names of one dev-node method: the same work, answered as each does —
 * anvil with null, Hardhat with true.
 */
export function inBothDialects<P extends unknown[], C = unknown>(
  run: (params: P, ctx: C) => Promise<void>,
): [anvil: (params: P, ctx: C) => Promise<null>, hardhat: (params: P, ctx: C) => Promise<true>] {
  return [
    async (params, ctx) => {
      await run(params, ctx);
      return null;
    },
    async (params, ctx) => {
      await run(params, ctx);
      return true;
    },
  ];
}
