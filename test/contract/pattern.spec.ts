// Pattern comparison for the contract diff: decided for anchored sequences of classes and literals, unknown otherwise.
import { expect } from 'chai';
import { comparePatterns } from '../../tools/contract/diff/pattern.js';

describe('contract diff: comparing patterns', function () {
  const cases: [string, string, string][] = [
    ['^0x[0-9a-fA-F]{1,64}$', '^0x[0-9a-fA-F]{1,64}$', 'equal'],
    ['^0x[0-9a-fA-F]{1,64}$', '^0x[0-9a-fA-F]{1,16}$', 'narrower'],
    ['^0x[0-9a-fA-F]{1,16}$', '^0x[0-9a-fA-F]{1,64}$', 'wider'],
    ['^0x[0-9a-fA-F]{40}$', '^0x[0-9a-f]{40}$', 'narrower'],
    ['^0x[0-9a-f]*$', '^0x[0-9a-fA-F]*$', 'wider'],
    ['^0x[0-9a-f]+$', '^0x[0-9a-f]*$', 'wider'],
    ['^\\d{1,3}$', '^[0-9]{1,3}$', 'equal'],
    ['^0x[0-9a-f]{2}$', '^0X[0-9a-f]{2}$', 'unknown'],
    ['^0x[0-9a-f]{1,4}$', '^0x[0-9A-F]{2,8}$', 'unknown'],
    ['^0x(0|[1-9a-f][0-9a-f]*)$', '^0x(0|[1-9a-f][0-9a-f]{0,15})$', 'unknown'],
    ['^0x[0-9a-f]+$', '0x[0-9a-f]+', 'unknown'],
    ['^a{2}b$', '^a{2}$', 'unknown'],
  ];
  for (const [base, head, relation] of cases) {
    it(`${base} → ${head}: ${relation}`, function () {
      expect(comparePatterns(base, head)).to.equal(relation);
    });
  }
});
