// Completeness: every method of the contract has a spec of its own, where its wire name says.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { methodNames } from '../../generated/index.js';
import { projectRoot } from '../../shared/contract/root.js';

/** `eth_getBalance` → test/rpc/eth/getBalance.spec.ts; `rpc.discover` → test/rpc/rpc/discover.spec.ts. */
function specPathOf(method: string): string {
  const [namespace, name] = method.includes('_') ? [method.slice(0, method.indexOf('_')), method.slice(method.indexOf('_') + 1)] : method.split('.');
  return join('test', 'rpc', namespace, `${name}.spec.ts`);
}

describe('every method of the contract has a spec', () => {
  const root = projectRoot();
  for (const method of methodNames) {
    it(`${method}: ${specPathOf(method)}`, () => {
      expect(existsSync(join(root, specPathOf(method))), `${specPathOf(method)} is missing`).to.equal(true);
    });
  }
});
