import { expect } from 'chai';
import { editDistance, nearest } from '../../src/suggest.js';

describe('suggestions for mistyped words', () => {
  it('counts a swap of neighbouring letters as one edit', () => {
    expect(editDistance('tset', 'test')).to.equal(1);
    expect(editDistance('data-dri', 'data-dir')).to.equal(1);
    expect(editDistance('port', 'fork')).to.equal(2);
  });

  it('suggests the nearest word within a third of its length, or one it extends or abbreviates', () => {
    const flags = ['host', 'port', 'data-dir', 'block-time', 'gas-limit'];
    expect(nearest('blocktime', flags)).to.equal('block-time');
    expect(nearest('hostname', flags)).to.equal('host');
    expect(nearest('gas', flags)).to.equal('gas-limit');
    expect(nearest('fork', flags)).to.equal(undefined);
    expect(nearest('frobnicate', flags)).to.equal(undefined);
  });
});
