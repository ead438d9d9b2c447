// The node under measurement: one the benchmark starts on a temp data dir, and what /proc tells of it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface NodeUnderTest {
  url: string;
  pid?: number;
  stop(): Promise<void>;
}

/**
 * A node on a temp data dir (or in memory: `inMemory`; or on `dataDir`, which stopping it keeps), started
 * with `flagsOfNode` besides.
 */
export async function startOwnNode(
  flagsOfNode: string[] = [],
  { inMemory = false, dataDir, startTimeoutMs = 30_000, stopTimeoutMs = 10_000 }: { inMemory?: boolean; dataDir?: string; startTimeoutMs?: number; stopTimeoutMs?: number } = {},
): Promise<NodeUnderTest> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'evm-node-bench-')));
  const cli = fileURLToPath(new URL('../../src/cli.js', import.meta.url));
  const where = inMemory ? [] : ['--data-dir', dir];
  const child: ChildProcess = spawn(process.execPath, [cli, 'start', '--port', '0', ...where, '--log-level', 'warn', ...flagsOfNode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the node did not start within ${startTimeoutMs / 1000} s`)), startTimeoutMs);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /evm-node listening on (http:\/\/\S+)/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the node exited (${code}) before listening`));
    });
  });
  return {
    url,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const force = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
        await exited;
        clearTimeout(force);
      }
      if (dataDir === undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** CPU seconds (user + system) the process has used so far; undefined when /proc cannot tell. */
export async function cpuSeconds(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th, in ticks of 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Resident memory now and at its peak, in MiB; of it, what the process allocated (anon) and the
 * file pages it maps (the node binary, LevelDB's table files).
 */
export async function residentMemory(pid: number | undefined): Promise<{ rss: number; peak: number; anon: number; file: number } | undefined> {
  if (pid === undefined) return undefined;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024, anon: kib('RssAnon') / 1024, file: kib('RssFile') / 1024 };
  } catch {
    return undefined;
  }
}

/** The node's CPU time per operation while `run` ran, in µs (contention on the machine barely moves it). */
export async function withCpu<T>(pid: number | undefined, operations: (result: T) => number, run: () => Promise<T>): Promise<{ result: T; cpuUs?: number }> {
  const before = await cpuSeconds(pid);
  const result = await run();
  const after = await cpuSeconds(pid);
  const count = operations(result);
  return { result, cpuUs: before === undefined || after === undefined || count === 0 ? undefined : ((after - before) * 1e6) / count };
}

/**
 * Waits until the node works no more in the background: under 2 % of a core over a second (LevelDB
 * compacts the tables a burst of blocks left behind on its own thread, which reads would otherwise
 * share the cores with), for at most `maxSeconds`. Answers the seconds waited and the CPU seconds
 * the node used meanwhile; undefined without a process to watch.
 */
export async function settle(pid: number | undefined, maxSeconds = 60): Promise<{ seconds: number; cpu: number } | undefined> {
  const first = await cpuSeconds(pid);
  if (first === undefined) return undefined;
  const started = performance.now();
  let last = first;
  while (performance.now() - started < maxSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = (await cpuSeconds(pid)) ?? last;
    const busy = now - last;
    last = now;
    if (busy < 0.02) break;
  }
  return { seconds: (performance.now() - started) / 1000, cpu: last - first };
}
