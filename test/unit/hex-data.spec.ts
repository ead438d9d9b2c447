import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { expect } from 'chai';

import { fromData } from '../../src/format/quantity.js';

describe('fromData: hex data strings to bytes', () => {
  it('decodes digits in either case', () => {
    expect([...fromData('0x00ffAb10')]).to.deep.equal([0x00, 0xff, 0xab, 0x10]);
  });

  it('reads an odd count of digits with a leading zero, as @ethereumjs/util does', () => {
    for (const hex of ['0x1', '0x123', '0xabcde'] as PrefixedHexString[]) expect([...fromData(hex)]).to.deep.equal([...hexToBytes(hex)]);
  });

  it('answers no bytes for 0x', () => {
    expect(fromData('0x')).to.have.length(0);
  });

  it('answers a plain Uint8Array, whose slice is a copy', () => {
    const bytes = fromData('0x01020304');
    expect(Buffer.isBuffer(bytes)).to.equal(false);
    const part = bytes.slice(0, 2);
    part[0] = 9;
    expect(bytes[0]).to.equal(1);
  });
});
