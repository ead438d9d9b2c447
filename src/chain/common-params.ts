import { paramsBlock } from '@ethereumjs/block';
import { Common } from '@ethereumjs/common';
import { paramsTx } from '@ethereumjs/tx';

type ParamsSet = Parameters<Common['updateParams']>[0];
/** Common.updateParams that skips the sets already merged; shared by a Common and all its copies. */
type MergingUpdate = Common['updateParams'] & { merged: Set<object> };

/**
 * Merges the @ethereumjs libraries' parameter sets into `common` once, and lets it and its copies
 * skip merging them again. Every transaction, header, EVM and VM those libraries construct copies
 * the Common it is given and merges its library's set into the copy — JSON round trips plus a
 * rebuild of the whole params cache, each time. Measured: decoding a transaction 123 µs → 25 µs.
 *
 * Nothing changes but the cost: the sets are merged already, and copies share them (Common.copy()
 * is shallow). The override is an own property, so Common.copy() (Object.assign) passes it on.
 * The header's and the transaction's sets are merged here; the EVM's and the VM's with
 * {@link addLibraryParams} once that library has loaded (state/vm.ts loads it on first use).
 */
export function premergeLibraryParams(common: Common): Common {
  const merged = new Set<object>();
  const update = function (this: Common, params: ParamsSet) {
    if (merged.has(params)) return;
    Common.prototype.updateParams.call(this, params);
  };
  common.updateParams = Object.assign(update, { merged });
  addLibraryParams([common], [paramsBlock, paramsTx]);
  return common;
}

/**
 * Merges more parameter sets into Commons of one chain — its base and every copy made so far (a
 * copy shares the base's parameters but keeps its own cache of them, rebuilt here) — which then
 * skip merging those sets again, as their copies to come do.
 */
export function addLibraryParams(commons: readonly Common[], sets: readonly object[]): void {
  for (const common of commons) for (const params of sets) Common.prototype.updateParams.call(common, params as ParamsSet);
  for (const common of commons) for (const params of sets) (common.updateParams as Partial<MergingUpdate>).merged?.add(params);
}
