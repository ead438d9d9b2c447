// npm and npx as a user runs them, for the specs that pack the project and install it elsewhere: npm's own CLI
// when the suite runs under npm (`npm test`), else the npm on PATH; every run bounded in time.
import { execFile, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { missingTool } from './required-tool.js';

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export type NpmRunner = (command: 'npm' | 'npx', args: string[], options: { cwd: string; timeoutMs: number }) => Promise<Run>;

/** How to start `name` (npm or npx): beside the npm running this suite, else from PATH; undefined when neither runs. */
function commandOf(name: 'npm' | 'npx'): string[] | undefined {
  const running = process.env.npm_execpath;
  if (running?.endsWith('npm-cli.js')) return [process.execPath, join(dirname(running), `${name}-cli.js`)];
  return spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0 ? [name] : undefined;
}

/**
 * The environment of a user's shell: without the variables `npm test` sets for this project (its prefix, its
 * package's fields, the lifecycle), but with the npm cache and config files it was told to use.
 */
function userEnv(): NodeJS.ProcessEnv {
  const kept = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_globalconfig', 'npm_config_cafile']);
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') || kept.has(name.toLowerCase())));
}

/** npm and npx for the suite whose `before` hook this is; skips it (fails it in CI) where npm is missing. */
export function npmFor(context: Mocha.Context, spec: string): NpmRunner {
  const npm = commandOf('npm');
  const npx = commandOf('npx');
  if (npm === undefined || npx === undefined) missingTool(context, spec, 'no npm', 'install Node.js with npm');
  return (command, args, options) => {
    const [file, ...prefix] = command === 'npm' ? npm : npx;
    return runBounded(file!, [...prefix, ...args], options);
  };
}

/** Runs `file ARGS` in a user's environment, killed once it has run `timeoutMs`; never rejects. */
export function runBounded(file: string, args: string[], { cwd, timeoutMs }: { cwd: string; timeoutMs: number }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: userEnv(), timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ status, stdout, stderr: error?.killed === true ? `${stderr}\n(killed after ${timeoutMs} ms)` : stderr });
    });
  });
}

/** A run's output for a failure message. */
export const described = (run: Run): string => `exit ${run.status}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
