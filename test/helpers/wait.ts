// Waiting for something to happen, by polling: never a fixed sleep that hopes it was long enough.
import { expect } from 'chai';
import { mock } from 'node:test';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds; fails naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) expect.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * Runs `body` with `setInterval` on a clock the test moves (`tick`), so interval mining can be
 * driven and stopped without waiting on the wall clock. Other timers stay real.
 */
export async function withIntervalClock(body: (tick: (ms: number) => void) => Promise<void>): Promise<void> {
  mock.timers.enable({ apis: ['setInterval'] });
  try {
    await body((ms) => mock.timers.tick(ms));
  } finally {
    mock.timers.reset();
  }
}
