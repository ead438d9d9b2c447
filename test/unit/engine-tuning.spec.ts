// The engine's memoized lookups must answer exactly what the lookups they stand for answer.
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { hexToBytes } from '@ethereumjs/util';
import { expect } from 'chai';
import { commonFromGenesis } from '../../src/chain/genesis.js';
import { devGenesis } from '../../src/chain/dev-genesis.js';
import { memoizeJumpAnalysis, tuneCommon } from '../../src/state/engine-tuning.js';
import { contracts } from '../helpers/contracts.js';

interface Analysing {
  _getValidJumpDestinations(code: Uint8Array): unknown;
}

/** An interpreter of an EVM on `common`, as the EVM makes one for each message. */
async function interpreterOn(common: Common): Promise<Analysing> {
  const evm = await createEVM({ common });
  const { Interpreter } = (await import(new URL('./interpreter.js', import.meta.resolve('@ethereumjs/evm')).href)) as {
    Interpreter: new (...args: unknown[]) => Analysing;
  };
  return new Interpreter(evm, evm.stateManager, evm.blockchain, { gasRefund: 0n }, 0n);
}

describe('engine tuning', () => {
  const stock = () => new Common({ chain: Mainnet, hardfork: Hardfork.Prague });

  it('isActivatedEIP answers as Common does, for every EIP and fork, also after the fork changes', () => {
    const tuned = tuneCommon(stock());
    const plain = stock();
    for (const fork of [Hardfork.Chainstart, Hardfork.Byzantium, Hardfork.London, Hardfork.Cancun, Hardfork.Prague, Hardfork.Osaka]) {
      tuned.setHardfork(fork);
      plain.setHardfork(fork);
      const eips = Array.from({ length: 8_300 }, (_, eip) => eip);
      expect(eips.filter((eip) => tuned.isActivatedEIP(eip))).to.deep.equal(eips.filter((eip) => plain.isActivatedEIP(eip)));
    }
  });

  it('copies of a tuned Common keep the lookups, and answer for their own fork', () => {
    const tuned = tuneCommon(stock());
    const copy = tuned.copy();
    copy.setHardfork(Hardfork.Shanghai);
    expect(copy.isActivatedEIP(4844)).to.equal(false);
    expect(tuned.isActivatedEIP(4844)).to.equal(true);
    expect(copy.isActivatedEIP).to.equal(tuned.isActivatedEIP);
  });

  it('hardforks() answers as Common does for a chain with custom (BPO) forks', () => {
    const spec = devGenesis({ chainId: 31337n, hardfork: 'osaka', accounts: [], balance: 0n, gasLimit: 30_000_000n });
    const chain = commonFromGenesis(spec);
    expect(chain.hardforks()).to.deep.equal(Common.prototype.hardforks.call(chain));
    expect(chain.gteHardfork(Hardfork.Prague)).to.equal(true);
  });

  it('jump analysis: the same code gives the same analysis as a fresh one, computed once per opcode table', async () => {
    await memoizeJumpAnalysis();
    const code = hexToBytes(contracts().StateOps.deployedBytecode);
    const prague = await interpreterOn(stock());
    const first = prague._getValidJumpDestinations(code);
    expect(prague._getValidJumpDestinations(code)).to.equal(first);
    // Another buffer with the same bytes is analysed afresh: the memo only spares re-analysis.
    const fresh = prague._getValidJumpDestinations(Uint8Array.from(code));
    expect(fresh).to.not.equal(first);
    expect(fresh).to.deep.equal(first);
    // Another fork has its own opcode table, and its own analysis.
    const berlin = await interpreterOn(new Common({ chain: Mainnet, hardfork: Hardfork.Berlin }));
    expect(berlin._getValidJumpDestinations(code)).to.not.equal(first);
  });
});
