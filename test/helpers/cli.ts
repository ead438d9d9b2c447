// The CLI as a user runs it: a child process of the compiled cli.js, read through its stdout and stderr.
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI_PATH } from './child-node.js';

export interface Cli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** Resolves with the first match of `pattern` in stdout, waiting for it to appear. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
}

const running = new Set<ChildProcess>();

/** Runs `cli.js ARGS` (or another build of the CLI, `cli`) in `cwd` (default: this process's), with `node`'s own options before it. */
export function runCli(args: string[], { cwd, node = [], cli = CLI_PATH }: { cwd?: string; node?: string[]; cli?: string } = {}): Cli {
  const child = spawn(process.execPath, [...node, cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const waitFor = (pattern: RegExp, ms = 30_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`no ${pattern} on stdout within ${ms} ms; stdout:\n${out}\nstderr:\n${err}`)), ms);
      const look = () => {
        const match = out.match(pattern);
        if (match !== null) done(undefined, match);
      };
      const ended = () => done(new Error(`the CLI exited before printing ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
      const done = (error?: Error, match?: RegExpMatchArray) => {
        clearTimeout(timer);
        child.stdout!.off('data', look);
        child.off('exit', ended);
        if (error !== undefined) reject(error);
        else resolve(match!);
      };
      child.stdout!.on('data', look);
      child.once('exit', ended);
      look();
    });
  return { child, stdout: () => out, stderr: () => err, exited, waitFor };
}

/** Waits for the banner's URL and its last account line (the banner is one write). */
export async function listening(cli: Cli): Promise<string> {
  const [, url] = await cli.waitFor(/listening on (http:\/\/\S+)/);
  await cli.waitFor(/\(19\) 0x[0-9a-f]{40}\s+0x[0-9a-f]{64}/);
  return url!;
}

/** Kills every CLI process still running (for afterEach). */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}
