// Specs that need a program from outside npm (Debian's chromium, python3, mypy): CI must run them, so with CI set a
// missing program fails the suite; on a machine without it a local `npm test` skips the spec and says so loudly.
import { spawnSync } from 'node:child_process';

export const inCI = (): boolean => process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

/** Fails (CI) or loudly skips (locally) the suite whose `before` hook this is, for want of `what`. */
export function missingTool(context: Mocha.Context, spec: string, what: string, hint: string): never {
  if (inCI()) throw new Error(`${what} (CI must run ${spec}): ${hint}`);
  console.warn(`\n  !!! SKIPPED: ${spec} — ${what} on this machine (${hint}); CI runs it.\n`);
  context.skip();
}

/** The first of `commands` that runs with `args` and exits 0, with its output; undefined when none does. */
export function firstRunnable(commands: readonly (string | undefined)[], args: string[]): { command: string; output: string } | undefined {
  for (const command of commands) {
    if (command === undefined || command === '') continue;
    const run = spawnSync(command, args, { encoding: 'utf8' });
    if (run.status === 0) return { command, output: `${run.stdout}${run.stderr}`.trim() };
  }
  return undefined;
}
