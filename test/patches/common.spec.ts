// patches/@ethereumjs+common: isActivatedEIP from a Set, hardforks() built once, and updateParams skipping a
// merge that changes nothing (a set found held remembered until the parameters change; parameters changed
// back to what they were take their caches back) answer what the unedited Common answers, fork after fork,
// copy after copy.
import { paramsBlock } from '@ethereumjs/block';
import * as common from '@ethereumjs/common';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';
import { expect } from 'chai';
import { pristineEngine, type PristineEngine } from '../../scripts/difftest/pristine.js';
import { Random } from '../../scripts/difftest/random.js';

type AnyCommon = common.Common | InstanceType<PristineEngine['common']['Common']>;
type ParamsSet = Record<string, Record<string, unknown>>;

/** A geth genesis with two blob-parameter-only forks: a chain with custom hardforks. */
const GENESIS = {
  config: {
    chainId: 7, homesteadBlock: 0, eip150Block: 0, eip155Block: 0, eip158Block: 0, byzantiumBlock: 0, constantinopleBlock: 0, petersburgBlock: 0,
    istanbulBlock: 0, berlinBlock: 0, londonBlock: 0, mergeNetsplitBlock: 0, terminalTotalDifficulty: 0, shanghaiTime: 0, cancunTime: 0, pragueTime: 0,
    osakaTime: 10, bpo1Time: 100, bpo2Time: 200,
    blobSchedule: {
      cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
      prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
      osaka: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
      bpo1: { target: 10, max: 15, baseFeeUpdateFraction: 8346193 },
      bpo2: { target: 14, max: 21, baseFeeUpdateFraction: 11684671 },
    },
  },
  alloc: {}, gasLimit: '0x1c9c380', difficulty: '0x0', timestamp: '0x0', extraData: '0x', nonce: '0x0',
  mixHash: `0x${'00'.repeat(32)}`, coinbase: `0x${'00'.repeat(20)}`,
} as unknown as common.GethGenesis; // osakaTime and the BPO forks' times are read, not typed

/** Everything a Common answers that the edits touch: its forks, which EIPs are on, and every parameter's value. */
function answers(c: AnyCommon, names: readonly string[], eips: readonly number[]): unknown {
  const param = (name: string) => {
    try {
      return String(c.param(name));
    } catch (error) {
      return (error as Error).message;
    }
  };
  return {
    hardfork: c.hardfork(),
    hardforks: JSON.stringify(c.hardforks()),
    eips: eips.filter((eip) => c.isActivatedEIP(eip)),
    params: names.map(param),
  };
}

describe('patches/@ethereumjs+common', () => {
  let pristine: PristineEngine;
  before(async () => {
    pristine = await pristineEngine();
  });

  /** The same chain on both sides: Mainnet at `hardfork`, or the genesis above. */
  function pair(kind: 'mainnet' | 'genesis'): [common.Common, InstanceType<PristineEngine['common']['Common']>] {
    if (kind === 'genesis') return [common.createCommonFromGethGenesis(GENESIS, { chain: 'x' }), pristine.common.createCommonFromGethGenesis(GENESIS, { chain: 'x' })];
    return [new common.Common({ chain: common.Mainnet }), new pristine.common.Common({ chain: pristine.common.Mainnet })];
  }

  const ours: ParamsSet[] = [paramsBlock, paramsTx, paramsEVM, paramsVM, { 1559: { customParam: 7 } }, { 1559: { customParam: 8, baseFeeMaxChangeDenominator: 9 } }, { 4844: { blobGasPerBlob: 1 } }];
  const theirs = (): ParamsSet[] => [pristine.block.paramsBlock, pristine.tx.paramsTx, pristine.evm.paramsEVM, pristine.vm.paramsVM, { 1559: { customParam: 7 } }, { 1559: { customParam: 8, baseFeeMaxChangeDenominator: 9 } }, { 4844: { blobGasPerBlob: 1 } }];
  const names = [...new Set(ours.flatMap((set) => Object.values(set).flatMap((values) => Object.keys(values))))];
  /** Every EIP a parameter set names, and a few that no fork has. */
  const eips = [...new Set(ours.flatMap((set) => Object.keys(set).map(Number)))].concat([0, 1, 99_999]);

  it('answers every fork of Mainnet and of a chain with custom forks as before: EIPs, forks and parameters', () => {
    for (const kind of ['mainnet', 'genesis'] as const) {
      const [edited, unedited] = pair(kind);
      for (const set of ours) edited.updateParams(set as never);
      for (const set of theirs()) unedited.updateParams(set as never);
      for (const { name } of unedited.hardforks()) {
        edited.setHardfork(name);
        unedited.setHardfork(name);
        expect(answers(edited, names, eips), `${kind} ${name}`).to.deep.equal(answers(unedited, names, eips));
      }
    }
  });

  it("takes back its parameters' cache when a VM's creation changes them and back (the EVM's and VM's sets disagree)", async () => {
    const { createVM } = await import('@ethereumjs/vm');
    const [edited, unedited] = pair('mainnet');
    edited.setHardfork(common.Hardfork.Osaka);
    unedited.setHardfork(common.Hardfork.Osaka);
    for (const set of ours.slice(0, 4)) edited.updateParams(set as never);
    for (const set of theirs().slice(0, 4)) unedited.updateParams(set as never);
    // The EVM's set says 8192 for EIP-2935's window, the VM's 8191; a VM merges the EVM's first.
    expect([paramsEVM[2935]?.historyServeWindow, paramsVM[2935]?.historyServeWindow]).to.deep.equal([8192, 8191]);
    const builds = { count: 0 };
    const prototype = common.Common.prototype as unknown as { _buildParamsCache(): void };
    const build = prototype._buildParamsCache;
    prototype._buildParamsCache = function (this: common.Common) {
      builds.count++;
      build.call(this);
    };
    try {
      await createVM({ common: edited.copy() });
      await pristine.vm.createVM({ common: unedited.copy() });
      builds.count = 0;
      const copies = Array.from({ length: 5 }, () => edited.copy());
      for (const copy of copies) copy.updateParams(paramsTx as never);
      expect(builds.count, 'caches rebuilt for copies made after the VM').to.equal(0);
    } finally {
      prototype._buildParamsCache = build;
    }
    const copy = unedited.copy();
    copy.updateParams(pristine.tx.paramsTx as never);
    expect(answers(edited.copy(), names, eips)).to.deep.equal(answers(copy, names, eips));
  });

  it('answers as before through random merges, resets, fork changes and copies (copies share their parameters)', () => {
    const random = new Random(5);
    for (let round = 0; round < 8; round++) {
      const kind = round % 2 === 0 ? 'mainnet' : 'genesis';
      const [first, firstUnedited] = pair(kind);
      const edited: common.Common[] = [first];
      const unedited: InstanceType<PristineEngine['common']['Common']>[] = [firstUnedited];
      const forks = firstUnedited.hardforks().map((hf) => hf.name);
      const sets = theirs();
      for (let step = 0; step < 40; step++) {
        const at = random.int(edited.length);
        const action = random.int(10);
        if (action < 5) {
          const set = random.int(ours.length);
          edited[at]!.updateParams(ours[set] as never);
          unedited[at]!.updateParams(sets[set] as never);
        } else if (action < 7) {
          const fork = random.pick(forks.slice(10));
          edited[at]!.setHardfork(fork);
          unedited[at]!.setHardfork(fork);
        } else if (action < 9) {
          edited.push(edited[at]!.copy());
          unedited.push(unedited[at]!.copy());
        } else {
          edited[at]!.resetParams({});
          unedited[at]!.resetParams({});
        }
        // The one changed each step; all of them (a change to one copy's parameters reaches the others') every fifth.
        for (let i = step % 5 === 4 ? 0 : at; i < (step % 5 === 4 ? edited.length : at + 1); i++) expect(answers(edited[i]!, names, eips), `round ${round} step ${step} common ${i}`).to.deep.equal(answers(unedited[i]!, names, eips));
      }
    }
  });
});
