import type { Common } from '@ethereumjs/common';
import type { RlpItem } from '../storage/rlp-shape.js';
import { whenVmLibraryLoads } from '../state/vm.js';
import { addLibraryParams } from './common-params.js';

/**
 * One Common per fork of the chain. A Common carries a mutable "current hardfork", so code that
 * handles blocks of different forks (decoding, formatting, historical calls) takes the one for
 * its block instead of flipping a shared instance.
 */
export class ForkCommons {
  private readonly byFork = new Map<string, Common>();

  constructor(readonly base: Common) {
    // The EVM's and VM's parameters join every Common of the chain once that library loads.
    whenVmLibraryLoads((sets) => addLibraryParams([base, ...this.byFork.values()], sets));
  }

  at(header: { number: bigint; timestamp: bigint }): Common {
    return this.ofFork(this.base.getHardforkBy({ blockNumber: header.number, timestamp: header.timestamp }));
  }

  /**
   * The Common a header with these RLP fields decodes under: the fork that added its last field
   * (difficulty, the 8th, tells London from the merge). For headers the chain's schedule does not
   * place: a forked chain's remote history, which it knows no further back than the fork block.
   */
  ofHeaderFields(fields: readonly RlpItem[]): Common {
    if (fields.length >= 21) return this.ofFork(this.base.hardfork());
    if (fields.length >= 18) return this.ofFork('cancun');
    if (fields.length === 17) return this.ofFork('shanghai');
    if (fields.length === 16) return this.ofFork((fields[7] as Uint8Array).length === 0 ? 'paris' : 'london');
    return this.ofFork('berlin');
  }

  /** The Common of the chain at `fork`, one of its config's forks (a forked chain's history reads older blocks under their own). */
  ofFork(fork: string): Common {
    let common = this.byFork.get(fork);
    if (common === undefined) {
      common = this.base.copy();
      common.setHardfork(fork);
      this.byFork.set(fork, common);
    }
    return common;
  }
}
