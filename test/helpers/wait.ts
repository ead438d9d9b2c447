// Waiting in specs: for a while, or until a condition holds, failing with what was awaited.
import { expect } from 'chai';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition()` holds; fails the spec naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what = 'condition', timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) expect.fail(`${what}: not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}
