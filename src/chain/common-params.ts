import { paramsBlock } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { paramsTx } from '@ethereumjs/tx';

type ParamsSet = Parameters<Common['updateParams']>[0];

/**
 * Merges the header's and the transaction's parameter sets into `common` once. Every transaction,
 * header, EVM and VM those libraries construct copies the Common it is given and merges its
 * library's set into the copy; a Common whose cache holds a set already skips merging it again
 * (patches/@ethereumjs+common: the merge is JSON round trips and a rebuilt cache, ~100 µs a
 * transaction), so the chain's Commons hold every library's set: these two here, the EVM's and the
 * VM's with {@link addLibraryParams} once that library has loaded (state/vm.ts loads it on first use).
 */
export function premergeLibraryParams(common: Common): Common {
  addLibraryParams([common], [paramsBlock, paramsTx]);
  return common;
}

/**
 * Merges more parameter sets into Commons of one chain — its base and every copy made so far (a
 * copy shares the base's parameters but keeps its own cache of them, rebuilt here).
 */
export function addLibraryParams(commons: readonly Common[], sets: readonly object[]): void {
  for (const common of commons) for (const params of sets) common.updateParams(params as ParamsSet);
}
