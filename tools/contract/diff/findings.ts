// What the comparison of two schemas finds at one place, and the findings of the keywords compared value by value:
// enum, pattern, bounds and multipleOf.

import { deepEqual } from '../../../shared/contract/json.js';
import { admits, show, type Branch } from './branches.js';
import { comparePatterns } from './pattern.js';

export type Effect = 'narrowed' | 'widened' | 'unprovable' | 'default' | 'annotation';

export interface Finding {
  /** JSON path of the value the finding is about, e.g. `params.block`, `result.transactions[*]`. */
  path: string;
  effect: Effect;
  detail: string;
}

export function enumFindings(a: Branch, b: Branch, path: string): Finding[] {
  const out: Finding[] = [];
  const ea = a.schema.enum as unknown[] | undefined;
  const eb = b.schema.enum as unknown[] | undefined;
  if (ea !== undefined && eb !== undefined) {
    for (const v of ea) if (!eb.some((w) => deepEqual(v, w))) out.push({ path, effect: 'narrowed', detail: `enum value ${show(v)} removed` });
    for (const v of eb) if (!ea.some((w) => deepEqual(v, w))) out.push({ path, effect: 'widened', detail: `enum value ${show(v)} added` });
    return out;
  }
  if (ea !== undefined) {
    for (const v of ea) {
      const kept = admits(b, v);
      if (kept === false) out.push({ path, effect: 'narrowed', detail: `value ${show(v)} no longer allowed` });
      else if (kept === undefined) out.push({ path, effect: 'unprovable', detail: `cannot prove compatible (is ${show(v)} still allowed?)` });
    }
    out.push({ path, effect: 'widened', detail: `no longer limited to ${ea.map(show).join(' | ')}` });
    return out;
  }
  for (const v of eb!) {
    const was = admits(a, v);
    if (was === false) out.push({ path, effect: 'widened', detail: `value ${show(v)} now allowed` });
    else if (was === undefined) out.push({ path, effect: 'unprovable', detail: `cannot prove compatible (was ${show(v)} allowed?)` });
  }
  out.push({ path, effect: 'narrowed', detail: `now limited to ${eb!.map(show).join(' | ')}` });
  return out;
}

export function patternFindings(a: unknown, b: unknown, path: string): Finding[] {
  if (a === b) return [];
  if (typeof a !== 'string') return [{ path, effect: 'narrowed', detail: `pattern ${show(b)} added` }];
  if (typeof b !== 'string') return [{ path, effect: 'widened', detail: `pattern ${show(a)} removed` }];
  const detail = `pattern ${show(a)} → ${show(b)}`;
  switch (comparePatterns(a, b)) {
    case 'equal':
      return [];
    case 'narrower':
      return [{ path, effect: 'narrowed', detail: `${detail} (matches fewer strings)` }];
    case 'wider':
      return [{ path, effect: 'widened', detail: `${detail} (matches more strings)` }];
    case 'unknown':
      return [{ path, effect: 'unprovable', detail: `${detail}: cannot prove compatible` }];
  }
}

export function lowerBound(name: string, a: unknown, b: unknown, path: string): Finding[] {
  if (a === b) return [];
  if (typeof a !== 'number') return [{ path, effect: 'narrowed', detail: `${name} ${show(b)} added` }];
  if (typeof b !== 'number') return [{ path, effect: 'widened', detail: `${name} ${a} removed` }];
  return [b > a ? { path, effect: 'narrowed', detail: `${name} raised from ${a} to ${b}` } : { path, effect: 'widened', detail: `${name} lowered from ${a} to ${b}` }];
}

export function upperBound(name: string, a: unknown, b: unknown, path: string): Finding[] {
  if (a === b) return [];
  if (typeof a !== 'number') return [{ path, effect: 'narrowed', detail: `${name} ${show(b)} added` }];
  if (typeof b !== 'number') return [{ path, effect: 'widened', detail: `${name} ${a} removed` }];
  return [b < a ? { path, effect: 'narrowed', detail: `${name} lowered from ${a} to ${b}` } : { path, effect: 'widened', detail: `${name} raised from ${a} to ${b}` }];
}

export function multipleOfFindings(a: unknown, b: unknown, path: string): Finding[] {
  if (a === b) return [];
  if (typeof a !== 'number') return [{ path, effect: 'narrowed', detail: `multipleOf ${show(b)} added` }];
  if (typeof b !== 'number') return [{ path, effect: 'widened', detail: `multipleOf ${a} removed` }];
  if (Number.isInteger(b / a)) return [{ path, effect: 'narrowed', detail: `multipleOf ${a} → ${b}` }];
  if (Number.isInteger(a / b)) return [{ path, effect: 'widened', detail: `multipleOf ${a} → ${b}` }];
  return [{ path, effect: 'unprovable', detail: `multipleOf ${a} → ${b}: cannot prove compatible` }];
}
