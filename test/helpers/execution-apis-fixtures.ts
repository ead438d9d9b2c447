// Where the execution-apis conformance fixtures (a test chain and its cases, CC0) sit in the checkout.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** test/fixtures/execution-apis, found from the compiled test's place upwards. */
export function executionApisFixtures(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'test', 'fixtures', 'execution-apis');
    if (existsSync(join(candidate, 'genesis.json')) && existsSync(join(dir, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find test/fixtures/execution-apis above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
