// The params pre-merge: a Common of the chain and every copy of it answer the libraries' params
// without merging them again.
import { paramsBlock } from '@ethereumjs/block';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { paramsEVM } from '@ethereumjs/evm';
import { createTx, paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';
import { expect } from 'chai';
import { addLibraryParams, premergeLibraryParams } from '../../src/chain/common-params.js';

const fresh = () => createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: Hardfork.Osaka });

describe('library params merged once (premergeLibraryParams)', () => {
  it('copies made before and after the EVM’s and VM’s sets are added answer every library’s params as a Common that merged them itself', () => {
    const reference = fresh();
    for (const params of [paramsBlock, paramsTx, paramsEVM, paramsVM]) reference.updateParams(params);
    const base = premergeLibraryParams(fresh());
    const early = base.copy();
    addLibraryParams([base, early], [paramsEVM, paramsVM]);
    for (const copy of [early, base.copy()]) {
      let checked = 0;
      for (const params of [paramsBlock, paramsTx, paramsEVM, paramsVM]) {
        for (const [eip, values] of Object.entries(params)) {
          if (!reference.isActivatedEIP(Number(eip))) continue;
          for (const name of Object.keys(values)) {
            expect(copy.param(name), name).to.equal(reference.param(name));
            checked++;
          }
        }
      }
      expect(checked).to.be.greaterThan(100);
    }
  });

  it('a copy made before the EVM’s and VM’s sets were added, and not handed over with them, merges them itself when an EVM asks', () => {
    const base = premergeLibraryParams(fresh());
    const early = base.copy();
    addLibraryParams([base], [paramsEVM, paramsVM]);
    expect(() => early.param('stopGas')).to.throw(/Missing parameter value for stopGas/);
    early.updateParams(paramsEVM);
    expect(early.param('stopGas')).to.equal(base.param('stopGas'));
  });

  it('a copy skips merging them again when a library constructor asks it to: no JSON round trip of the set', () => {
    const copy = premergeLibraryParams(fresh()).copy();
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
      parsed++;
      return parse(...args);
    };
    try {
      createTx({ type: 2, gasLimit: 21_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }, { common: copy });
      expect(parsed).to.equal(0);
      copy.updateParams({ 1559: { customParam: 7 } });
      expect(parsed).to.be.greaterThan(0);
    } finally {
      JSON.parse = parse;
    }
  });

  it('still merges a params set that is not one of the libraries’', () => {
    const common = premergeLibraryParams(fresh());
    common.updateParams({ 1559: { customParam: 7 } });
    expect(common.param('customParam')).to.equal(7n);
  });
});
