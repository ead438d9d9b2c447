// State dumps at scale (`npm run bench -- --dump 100000`): a dump in anvil's format of that many accounts (every
// tenth a contract with code and two slots) is loaded at start (--load-state), dumped back through anvil_dumpState,
// and written by --dump-state as the node stops; each in a fresh node process, so its peak resident memory (VmHWM)
// is that step's.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { RpcClient } from './client.js';
import { residentMemory, startOwnNode } from './node-process.js';
import { fmt, printTable } from './table.js';

const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const address = (n: number) => `0x${(0x10_0000 + n).toString(16).padStart(40, '0')}`;

/** Writes a dump of `accounts` accounts to `file`, as anvil would. */
async function writeDump(file: string, accounts: number): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"block":null,"accounts":{');
  for (let i = 0; i < accounts; i++) {
    const contract = i % 10 === 0;
    const code = contract ? '0x6001600055' : '0x';
    const storage = contract ? `{"${word(1)}":"${word(i + 1)}","${word(2)}":"${word(7)}"}` : '{}';
    await write(`${i === 0 ? '' : ','}"${address(i)}":{"nonce":${i % 5},"balance":"0x${(1_000_000 + i).toString(16)}","code":"${code}","storage":${storage}}`);
  }
  await write('},"best_block_number":0,"blocks":[],"transactions":[]}');
  out.end();
  await once(out, 'finish');
}

export async function measureStateDump(accounts: number, log: (message: string) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'evm-node-bench-dump-'));
  const rows: string[][] = [];
  const row = (step: string, seconds: number, peakMiB: number | undefined, note: string) =>
    rows.push([step, fmt(seconds, 2), peakMiB === undefined ? 'n/a' : `${fmt(peakMiB)} MiB`, note]);
  try {
    const file = join(dir, 'in.json');
    await writeDump(file, accounts);
    const size = (await stat(file)).size;
    log(`a dump of ${fmt(accounts)} accounts, ${fmt(size / 2 ** 20, 1)} MiB of JSON`);

    const baseline = performance.now();
    const plain = await startOwnNode([], { dataDir: join(dir, 'plain') });
    const startSeconds = (performance.now() - baseline) / 1000;
    await plain.stop();

    const data = join(dir, 'data');
    let t0 = performance.now();
    const loaded = await startOwnNode(['--load-state', file], { dataDir: data, startTimeoutMs: 30 * 60_000 });
    const loadSeconds = (performance.now() - t0) / 1000 - startSeconds;
    row('--load-state at start', loadSeconds, (await residentMemory(loaded.pid))?.peak, `${fmt(size / 2 ** 20, 1)} MiB of JSON; the start without it (${fmt(startSeconds, 2)} s) taken off`);
    await loaded.stop();

    const dumping = await startOwnNode([], { dataDir: data });
    const client = new RpcClient(dumping.url, 1, 10 * 60_000);
    t0 = performance.now();
    const hex = await client.call<string>('anvil_dumpState');
    row('anvil_dumpState', (performance.now() - t0) / 1000, (await residentMemory(dumping.pid))?.peak, `${fmt((hex.length - 2) / 2 / 2 ** 20, 1)} MiB gzipped, in hex over HTTP`);
    client.close();
    await dumping.stop();

    const out = join(dir, 'out.json');
    const stopping = await startOwnNode(['--dump-state', out], { dataDir: data, stopTimeoutMs: 30 * 60_000 });
    t0 = performance.now();
    let peak = (await residentMemory(stopping.pid))?.peak;
    // VmHWM is the process's peak so far; read until the process is gone.
    const sampling = setInterval(() => void residentMemory(stopping.pid).then((m) => (peak = m !== undefined && Number.isFinite(m.peak) ? m.peak : peak)), 50);
    await stopping.stop();
    clearInterval(sampling);
    row('--dump-state on SIGTERM', (performance.now() - t0) / 1000, peak, `${fmt((await stat(out)).size / 2 ** 20, 1)} MiB of JSON written, then the node exits (peak sampled every 50 ms)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  printTable(['state dump, ' + fmt(accounts) + ' accounts', 'seconds', 'peak RSS', 'note'], rows, new Set([1, 2]));
}
