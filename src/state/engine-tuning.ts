// Wrappers around @ethereumjs internals that answer exactly what the wrapped code answers, only
// without recomputing it on every call. Measured on the benchmark token's balanceOf over an
// in-memory state (one core): a call's EVM work 146 → 111 µs.
import { Common } from '@ethereumjs/common';
import { loadInterpreter } from './evm-interpreter.js';

/** Activated-EIP lists (Common rebuilds its list on every fork change) → the same list as a Set. */
const eipSets = new WeakMap<readonly number[], ReadonlySet<number>>();
/** A chain's parameters (fixed when its Common is made) → its list of hardforks. */
const hardforkLists = new WeakMap<object, ReturnType<Common['hardforks']>>();

interface CommonInternals {
  _activatedEIPsCache: readonly number[];
  _chainParams: object;
}

/** The one adapter that reaches into Common's private members: the two these wrappers key their memos by. */
const internals = (common: Common): CommonInternals => common as unknown as CommonInternals;

/**
 * Two lookups every transaction and opcode makes, answered from memory. Own properties, so
 * Common.copy() (Object.assign) hands them to every copy, as premergeLibraryParams does its override.
 * - `isActivatedEIP` from a Set instead of `Array.includes` over the ~90 EIPs of a recent fork:
 *   the interpreter asks several times per opcode (EIP-6800/7864 witness checks, EIP-8024 in jump
 *   analysis). The Set follows the Common's own list, which is rebuilt (a new array) on a fork change.
 * - `hardforks()`, which for a chain with custom forks (a geth genesis's BPO forks) builds a new
 *   array through a Set on every call — and `gteHardfork`, asked by every transaction constructor,
 *   intrinsic-gas count and receipt, calls it. The list depends only on the chain's parameters.
 */
export function tuneCommon(common: Common): Common {
  common.isActivatedEIP = function (this: Common, eip: number): boolean {
    const list = internals(this)._activatedEIPsCache;
    let set = eipSets.get(list);
    if (set === undefined) {
      set = new Set(list);
      eipSets.set(list, set);
    }
    return set.has(eip);
  };
  common.hardforks = function (this: Common) {
    const params = internals(this)._chainParams;
    let list = hardforkLists.get(params);
    if (list === undefined) {
      list = Common.prototype.hardforks.call(this);
      hardforkLists.set(params, list);
    }
    return list;
  };
  return common;
}

/** What the interpreter's jump analysis answers for one code buffer (read-only to its callers). */
type JumpAnalysis = unknown;
interface InterpreterInternals {
  _evm: { _opcodeMap: object };
  _getValidJumpDestinations(code: Uint8Array): JumpAnalysis;
}

/** Opcode table (one per fork an EVM runs) → code buffer → its analysis. */
const analyses = new WeakMap<object, WeakMap<Uint8Array, JumpAnalysis>>();
let jumpAnalysisMemoized = false;

/**
 * Memoizes the interpreter's jump-destination analysis per code buffer. The interpreter redoes it
 * for every message it runs — a pass over the whole contract that decodes each PUSH to a bigint —
 * though it depends only on the code and the opcode table (rebuilt, as a new object, when the
 * EVM's fork changes), and the interpreter only reads what it returns. State managers hand out the
 * same buffer for the same code (the flat state keeps code by hash), so a contract is analysed
 * once per fork.
 */
export async function memoizeJumpAnalysis(): Promise<void> {
  if (jumpAnalysisMemoized) return;
  jumpAnalysisMemoized = true;
  const Interpreter = (await loadInterpreter()) as { prototype: InterpreterInternals };
  const analyse = Interpreter.prototype._getValidJumpDestinations;
  Interpreter.prototype._getValidJumpDestinations = function (this: InterpreterInternals, code: Uint8Array): JumpAnalysis {
    const table = this._evm._opcodeMap;
    let byCode = analyses.get(table);
    if (byCode === undefined) {
      byCode = new WeakMap();
      analyses.set(table, byCode);
    }
    let analysis = byCode.get(code);
    if (analysis === undefined) {
      analysis = analyse.call(this, code);
      byCode.set(code, analysis);
    }
    return analysis;
  };
}
