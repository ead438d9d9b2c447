// The node as a separate process (the CLI), for tests that kill it: SIGKILL, restart on the same dir.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { resultError, type MethodName, type RpcMethods } from '../../generated/index.js';
import { rpc } from './rpc.js';

/** The compiled CLI beside the compiled tests (dist/src/cli.js for dist/test/helpers/child-node.js). */
export const CLI_PATH = fileURLToPath(new URL('../../src/cli.js', import.meta.url));

export interface ChildNode {
  url: string;
  pid: number;
  /** Calls `method` over HTTP and fails unless the result matches the contract's result schema. */
  call<M extends MethodName>(method: M, params: Parameters<RpcMethods[M]>[0]): Promise<Awaited<ReturnType<RpcMethods[M]>>>;
  /** Everything the node wrote to stderr so far (its log), for failure messages. */
  stderr(): string;
  /** kill -9: no shutdown handler runs. Resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM, a clean shutdown; SIGKILL if it is not gone within 10 s. Resolves with how it exited. */
  stop(): Promise<ChildExit>;
}

/** How a node process ended: its exit code, or the signal that killed it. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnOptions {
  /** the node's --log-level (default warn); at debug the miner says when a block starts and lands */
  logLevel?: 'error' | 'warn' | 'info' | 'debug';
  timeoutMs?: number;
}

/** Starts `cli.js start` on `dataDir` (in memory without one) on a free port; resolves once it prints its URL. */
export async function spawnNode(dataDir: string | undefined, flags: string[] = [], { logLevel = 'warn', timeoutMs = 30_000 }: SpawnOptions = {}): Promise<ChildNode> {
  const where = dataDir === undefined ? [] : ['--data-dir', dataDir];
  const child = spawn(process.execPath, [CLI_PATH, 'start', '--port', '0', ...where, '--log-level', logLevel, ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err = (err + chunk).slice(-20_000);
  });
  const exited = new Promise<ChildExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`node did not start within ${timeoutMs} ms\n${err}`)), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: string) => {
      out += chunk;
      const match = /evm-node listening on (http:\/\/\S+)/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        // Later output (the terminal's lines) is read and dropped, so the child never blocks on a full pipe.
        child.stdout!.off('data', onData).resume();
        resolve(match[1]);
      }
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.once('exit', (code, signal) => fail(new Error(`node exited (${code ?? signal}) before listening\n${err}`)));
  });
  return {
    url,
    pid: child.pid!,
    call: async (method, params) => {
      const result = await rpc(url, method, params as unknown[]);
      const problem = resultError(method, result);
      if (problem !== null) throw new Error(`${method} answered outside its contract: ${problem}\n${JSON.stringify(result).slice(0, 2000)}`);
      return result as never;
    },
    stderr: () => err,
    kill9: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: () => stopChild(child, exited),
  };
}

async function stopChild(child: ChildProcess, exited: Promise<ChildExit>): Promise<ChildExit> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const exit = await exited;
  clearTimeout(timer);
  return exit;
}
