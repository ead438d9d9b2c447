// The dev-node controls a test suite leans on: a Hardhat-style fixture loop, and anvil_mine of many empty blocks.
import { JsonRpcProvider } from 'ethers';
import type { RpcClient } from './client.js';
import { withCpu } from './node-process.js';
import { cpuNote, fmt, type Log, type Row } from './table.js';

/**
 * The loop of a Hardhat-style test suite: snapshot, send a transaction from a node account, read its
 * receipt, revert; `--fixture-rounds` times over raw JSON-RPC, then through ethers (without its
 * 10 ms request batching, as a test runner would set it up).
 */
export async function fixtureLoops(client: RpcClient, url: string, pid: number | undefined, from: string, rounds: number, rows: Row[], log: Log): Promise<void> {
  const raw = async () => {
    for (let i = 0; i < rounds; i++) {
      const id = await client.call<string>('evm_snapshot');
      const hash = await client.call<string>('eth_sendTransaction', [{ from, to: from, value: '0x1' }]);
      if ((await client.call<{ status: string } | null>('eth_getTransactionReceipt', [hash]))?.status !== '0x1') throw new Error('fixture transaction failed');
      if ((await client.call<boolean>('evm_revert', [id])) !== true) throw new Error('evm_revert answered false');
    }
  };
  log(`fixture loop, ${rounds} rounds…`);
  await raw(); // warm-up, not counted
  let start = performance.now();
  const { cpuUs } = await withCpu(pid, () => rounds, raw);
  let seconds = (performance.now() - start) / 1000;
  rows.push({ workload: `fixture loop, JSON-RPC (${rounds} rounds)`, result: `${fmt(seconds, 2)} s`, note: `snapshot → send → receipt → revert; ${fmt((seconds * 1000) / rounds, 1)} ms a round${cpuNote(cpuUs)}` });
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1, batchMaxCount: 1 });
  try {
    const signer = await provider.getSigner(from);
    start = performance.now();
    for (let i = 0; i < rounds; i++) {
      const id: string = await provider.send('evm_snapshot', []);
      await (await signer.sendTransaction({ to: from, value: 1n })).wait();
      if ((await provider.send('evm_revert', [id])) !== true) throw new Error('evm_revert answered false');
    }
    seconds = (performance.now() - start) / 1000;
    rows.push({ workload: `fixture loop, ethers (${rounds} rounds)`, result: `${fmt(seconds, 2)} s`, note: `JsonRpcSigner.sendTransaction + wait(); ${fmt((seconds * 1000) / rounds, 1)} ms a round` });
  } finally {
    provider.destroy();
  }
}

/** anvil_mine of `total` empty blocks (`--mine-blocks`), in calls of at most 10,000 (each well within a client's timeout). */
export async function mineEmptyBlocks(client: RpcClient, pid: number | undefined, total: number, rows: Row[], log: Log): Promise<void> {
  log(`anvil_mine, ${total} blocks…`);
  const from = BigInt(await client.call<string>('eth_blockNumber'));
  const start = performance.now();
  const { cpuUs } = await withCpu(pid, () => total, async () => {
    for (let left = total; left > 0; left -= 10_000) await client.call('anvil_mine', [`0x${Math.min(left, 10_000).toString(16)}`]);
  });
  const seconds = (performance.now() - start) / 1000;
  const mined = BigInt(await client.call<string>('eth_blockNumber')) - from;
  if (mined !== BigInt(total)) throw new Error(`anvil_mine mined ${mined} blocks, not ${total}`);
  rows.push({ workload: `anvil_mine, ${fmt(total)} empty blocks`, result: `${fmt(total / seconds)} blocks/s`, note: `${fmt(seconds, 1)} s${cpuNote(cpuUs)}` });
}
