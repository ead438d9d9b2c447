// One table of Solidity's panic codes: the RPC error's reason (geth's words) and the terminal's line
// read the same meaning from it.
import { hexToBytes } from '@ethereumjs/util';
import { expect } from 'chai';
import { revertReason } from '../../src/state/revert.js';
import { describeRevert } from '../../src/terminal/outcome.js';

/** `Panic(uint256)` revert data for a code. */
function panic(code: number): Uint8Array {
  return hexToBytes(`0x4e487b71${code.toString(16).padStart(64, '0')}`);
}

describe('revert words', () => {
  it('gives a known panic its meaning in geth\'s words', () => {
    expect(revertReason(panic(0x11))).to.equal('arithmetic underflow or overflow');
  });

  it('names an unknown panic code by its number', () => {
    expect(revertReason(panic(0x99))).to.equal('unknown panic code: 0x99');
  });

  it('prints a panic in the terminal with its code and the same meaning', () => {
    expect(describeRevert(panic(0x12))).to.equal('reverted with panic code 0x12 (division or modulo by zero)');
  });

  it('prints an unknown panic in the terminal by its code alone', () => {
    expect(describeRevert(panic(0x99))).to.equal('reverted with panic code 0x99');
  });
});
