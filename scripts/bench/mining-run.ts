// The mining run (`npm run bench -- --mine-run 5000,20000,100000`): for each count, a fresh node
// mines that many empty blocks in one anvil_mine call, while another client asks eth_blockNumber
// one request at a time; reported are the call's time, the longest eth_blockNumber waited meanwhile
// and the node's peak resident memory (a fresh process per count, so the peak is the run's), with
// the peak of what it allocated itself, sampled: LevelDB maps its table files, whose pages the rest
// of the peak mostly is (file-backed, given back under memory pressure).
import { RpcClient } from './client.js';
import { residentMemory, startOwnNode, withCpu } from './node-process.js';
import { fmt, printTable } from './table.js';

/** One anvil_mine call of 1,000,000 blocks (its most) at today's pace takes long: the client waits that long. */
const CALL_TIMEOUT_MS = 30 * 60_000;

interface Figures {
  blocks: number;
  seconds: number;
  cpuUs?: number;
  longestWaitMs: number;
  waits: number;
  peakMiB?: number;
  /** the most the process allocated itself (RssAnon) while it mined, sampled; the rest of its peak is file pages (LevelDB maps its tables) */
  peakAnonMiB?: number;
}

export async function measureMining(counts: readonly number[], log: (message: string) => void): Promise<void> {
  const figures: Figures[] = [];
  for (const blocks of counts) figures.push(await mineOnce(blocks, log));
  printTable(
    ['anvil_mine, empty blocks', 'seconds', 'blocks/s', 'node CPU per block', 'longest eth_blockNumber meanwhile', 'peak RSS', 'of it allocated (RssAnon)'],
    figures.map((f) => [
      fmt(f.blocks),
      fmt(f.seconds, 1),
      fmt(f.blocks / f.seconds),
      f.cpuUs === undefined ? 'n/a' : `${fmt(f.cpuUs)} µs`,
      `${fmt(f.longestWaitMs, 1)} ms (of ${fmt(f.waits)})`,
      f.peakMiB === undefined ? 'n/a' : `${fmt(f.peakMiB)} MiB`,
      f.peakAnonMiB === undefined ? 'n/a' : `${fmt(f.peakAnonMiB)} MiB`,
    ]),
    new Set([0, 1, 2, 3, 4, 5, 6]),
  );
}

async function mineOnce(blocks: number, log: (message: string) => void): Promise<Figures> {
  const node = await startOwnNode(['--no-mining']);
  const client = new RpcClient(node.url, 1, CALL_TIMEOUT_MS);
  const prober = new RpcClient(node.url, 1);
  try {
    log(`anvil_mine ${fmt(blocks)} blocks (node pid ${node.pid})…`);
    await prober.call('eth_blockNumber');
    let mining = true;
    let longestWaitMs = 0;
    let waits = 0;
    let peakAnonMiB: number | undefined;
    const sampling = setInterval(() => {
      void residentMemory(node.pid).then((memory) => {
        if (memory !== undefined) peakAnonMiB = Math.max(peakAnonMiB ?? 0, memory.anon);
      });
    }, 250);
    const probing = (async () => {
      while (mining) {
        const t0 = performance.now();
        await prober.call('eth_blockNumber');
        longestWaitMs = Math.max(longestWaitMs, performance.now() - t0);
        waits++;
      }
    })();
    const start = performance.now();
    const { cpuUs } = await withCpu(node.pid, () => blocks, async () => {
      try {
        await client.call('anvil_mine', [`0x${blocks.toString(16)}`]);
      } finally {
        mining = false;
      }
    });
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampling);
    await probing;
    const head = BigInt(await client.call<string>('eth_blockNumber'));
    if (head !== BigInt(blocks)) throw new Error(`anvil_mine left the head at ${head}, not ${blocks}`);
    const memory = await residentMemory(node.pid);
    return { blocks, seconds, cpuUs, longestWaitMs, waits, peakMiB: memory?.peak, peakAnonMiB };
  } finally {
    client.close();
    prober.close();
    await node.stop();
  }
}
