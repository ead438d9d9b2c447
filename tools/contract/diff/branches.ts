// A JSON Schema as branches, one per JSON type it admits, with the assertion keywords that apply to each:
// what the schema comparer pairs and compares, and the small algebra over them (intersection, membership of a value).

import { deepEqual, type JsonObject } from '../../../shared/contract/json.js';
import { componentName, schemaRefOf } from '../../../shared/contract/refs.js';

export type Family = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';
export const FAMILIES: readonly Family[] = ['string', 'number', 'boolean', 'null', 'array', 'object'];

export interface Branch {
  family: Family;
  /** number family: only integers. */
  integer: boolean;
  /** The assertion keywords that apply (enum filtered to this family). */
  schema: JsonObject;
  /** Component name, or '' for inline schemas. */
  label: string;
  /** Why it cannot be analysed keyword by keyword (an unknown keyword, a conflicting merge). */
  opaque?: string;
}

/** Keywords that never change which values are accepted. */
export const NON_ASSERTIONS = new Set(['$schema', '$id', '$comment', 'title', 'description', 'default', 'examples', 'format', 'readOnly', 'writeOnly', 'deprecated', 'definitions', '$defs']);
/** Assertion keywords compared one by one; any other assertion keyword makes a branch opaque. */
export const ANALYSED = new Set([
  'type', 'enum', 'const', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'items', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'properties', 'required',
  'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties',
]);

export function familyOf(value: unknown): { family: Family; integer: boolean } {
  if (value === null) return { family: 'null', integer: false };
  if (Array.isArray(value)) return { family: 'array', integer: false };
  if (typeof value === 'number') return { family: 'number', integer: Number.isInteger(value) };
  if (typeof value === 'object') return { family: 'object', integer: false };
  return { family: typeof value as Family, integer: false };
}

export const show = (v: unknown): string => JSON.stringify(v);

/** The branches of a schema without its allOf/oneOf/anyOf: one per JSON type it admits. */
export function ownBranches(s: JsonObject, label: string): Branch[] {
  const assertions: JsonObject = {};
  let opaque: string | undefined;
  for (const [k, v] of Object.entries(s)) {
    if (NON_ASSERTIONS.has(k) || k.startsWith('x-') || k === 'allOf' || k === 'oneOf' || k === 'anyOf') continue;
    if (!ANALYSED.has(k)) opaque ??= `keyword "${k}"`;
    if (k !== 'type' && k !== 'const') assertions[k] = v;
  }
  const values = 'const' in s ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
  let types: { family: Family; integer: boolean }[];
  if (typeof s.type === 'string' || Array.isArray(s.type)) {
    const names = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === 'string');
    types = names.map((t) => (t === 'integer' ? { family: 'number', integer: true } : { family: t as Family, integer: false }));
    if (types.some((t) => t.family === 'number' && !t.integer)) types = types.filter((t) => !(t.family === 'number' && t.integer));
  } else if (values !== undefined) {
    types = [...new Set(values.map((v) => familyOf(v).family))].map((family) => ({ family, integer: false }));
  } else {
    types = FAMILIES.map((family) => ({ family, integer: false }));
  }
  const out: Branch[] = [];
  for (const t of types) {
    if (!FAMILIES.includes(t.family)) {
      out.push({ ...t, family: 'object', schema: assertions, label, opaque: `unknown type "${t.family}"` });
      continue;
    }
    const schema = { ...assertions };
    if (values !== undefined) {
      const mine = values.filter((v) => familyOf(v).family === t.family && (!t.integer || familyOf(v).integer));
      if (mine.length === 0) continue;
      schema.enum = mine;
    }
    out.push(opaque === undefined ? { ...t, schema, label } : { ...t, schema, label, opaque });
  }
  return out;
}

/** Branches of values both sets of branches accept (allOf, and a schema's own keywords around its oneOf/anyOf). */
export function intersect(xs: Branch[], ys: Branch[]): Branch[] {
  const out: Branch[] = [];
  for (const x of xs) {
    for (const y of ys) {
      if (x.family !== y.family) continue;
      const schema: JsonObject = { ...x.schema };
      let opaque = x.opaque ?? y.opaque;
      for (const [k, v] of Object.entries(y.schema)) {
        if (Object.hasOwn(schema, k) && !deepEqual(schema[k], v)) opaque ??= `"${k}" both around and inside an alternative`;
        schema[k] = v;
      }
      const merged: Branch = { family: x.family, integer: x.integer || y.integer, schema, label: y.label || x.label };
      out.push(opaque === undefined ? merged : { ...merged, opaque });
    }
  }
  return out;
}

export function describe(b: Branch): string {
  if (b.label) return b.label;
  if (Array.isArray(b.schema.enum)) return b.schema.enum.map(show).join(' | ');
  if (b.family === 'number') return b.integer ? 'integer' : 'number';
  if (b.family === 'array') {
    const name = componentName(schemaRefOf(b.schema.items) ?? '');
    return name === undefined ? 'array' : `array of ${name}`;
  }
  if (b.family === 'string' && typeof b.schema.pattern === 'string') return `string matching ${b.schema.pattern}`;
  return b.family;
}

/** Whether branch `b` accepts the scalar `v`; undefined when that needs more than this knows. */
export function admits(b: Branch, v: unknown): boolean | undefined {
  const { family, integer } = familyOf(v);
  if (family !== b.family || (b.integer && !integer)) return false;
  const s = b.schema;
  if (Array.isArray(s.enum)) return s.enum.some((e) => deepEqual(e, v));
  if (typeof v === 'string') {
    const length = [...v].length;
    if (typeof s.minLength === 'number' && length < s.minLength) return false;
    if (typeof s.maxLength === 'number' && length > s.maxLength) return false;
    if (typeof s.pattern === 'string') {
      try {
        if (!new RegExp(s.pattern, 'u').test(v)) return false;
      } catch {
        return undefined;
      }
    }
    return true;
  }
  if (typeof v === 'number') {
    if (typeof s.minimum === 'number' && v < s.minimum) return false;
    if (typeof s.maximum === 'number' && v > s.maximum) return false;
    if (typeof s.exclusiveMinimum === 'number' && v <= s.exclusiveMinimum) return false;
    if (typeof s.exclusiveMaximum === 'number' && v >= s.exclusiveMaximum) return false;
    if (typeof s.multipleOf === 'number' && !Number.isInteger(v / s.multipleOf)) return false;
    return true;
  }
  return family === 'boolean' || family === 'null' ? true : undefined;
}
