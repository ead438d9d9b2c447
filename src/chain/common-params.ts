import { paramsBlock } from '@ethereumjs/block';
import { Common } from '@ethereumjs/common';
import { paramsTx } from '@ethereumjs/tx';

type ParamsSet = Parameters<Common['updateParams']>[0];

/**
 * The library parameter sets a Common's params cache holds. An own member, so Common.copy()
 * (Object.assign) hands it to the copy along with the cache; it is replaced, never changed, when
 * sets are merged, so a copy made earlier keeps the list its own (older) cache answers to.
 */
const MERGED = Symbol('merged library params');
type Tracked = Common & { [MERGED]?: ReadonlySet<object> };

/** Common.updateParams that skips a set this Common's cache holds already; the copies inherit it. */
function mergingUpdate(this: Tracked, params: ParamsSet): void {
  if (this[MERGED]?.has(params) === true) return;
  Common.prototype.updateParams.call(this, params);
  this[MERGED] = new Set([...(this[MERGED] ?? []), params]);
}

/**
 * Merges the @ethereumjs libraries' parameter sets into `common` once, and lets it and its copies
 * skip merging them again. Every transaction, header, EVM and VM those libraries construct copies
 * the Common it is given and merges its library's set into the copy — JSON round trips plus a
 * rebuild of the whole params cache, each time. Measured: decoding a transaction 123 µs → 25 µs.
 *
 * Nothing changes but the cost: a set is skipped only by a Common whose own cache holds it. The
 * header's and the transaction's sets are merged here; the EVM's and the VM's with
 * {@link addLibraryParams} once that library has loaded (state/vm.ts loads it on first use). A
 * copy made before that (and not handed to addLibraryParams) merges them itself when an EVM is
 * built on it: it never skips a set its cache lacks.
 */
export function premergeLibraryParams(common: Common): Common {
  common.updateParams = mergingUpdate;
  addLibraryParams([common], [paramsBlock, paramsTx]);
  return common;
}

/**
 * Merges more parameter sets into Commons of one chain — its base and every copy made so far (a
 * copy shares the base's parameters but keeps its own cache of them, rebuilt here) — which then
 * skip merging those sets again, as their copies to come do.
 */
export function addLibraryParams(commons: readonly Common[], sets: readonly object[]): void {
  for (const common of commons) for (const params of sets) common.updateParams(params as ParamsSet);
}
