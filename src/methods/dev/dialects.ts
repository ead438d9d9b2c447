/**
 * The anvil_ and hardhat_ names of one dev-node method: the same work, answered as each does —
 * anvil with null, Hardhat with true.
 */
export function inBothDialects<P extends unknown[]>(run: (params: P) => Promise<void>): [anvil: (params: P) => Promise<null>, hardhat: (params: P) => Promise<true>] {
  return [
    async (params) => {
      await run(params);
      return null;
    },
    async (params) => {
      await run(params);
      return true;
    },
  ];
}
