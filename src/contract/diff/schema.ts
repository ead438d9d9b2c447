// Comparing two JSON Schemas by the values they accept: every place where the head schema accepts fewer values than
// the base (narrowed), more (widened), or where that cannot be decided (unprovable), with the JSON path of the place.
// `$ref`s (and `x-recursive-ref`s, refs.ts) are followed in each schema's own document. The method layer turns findings
// into breaking or non-breaking changes depending on the direction the values travel (params in, results out).
//
// A schema is split into branches, one per JSON type it admits and per oneOf/anyOf alternative (their common
// keywords merged in), so `{ "type": ["string", "null"] }` and `oneOf: [Quantity, BlockTag]` are compared the same
// way: branches of one type are paired (equal first, then by component name), and a branch left over was removed or
// added. oneOf's "exactly one" is read as anyOf: alternatives that start overlapping are not reported.

import { deepEqual, isObject, type JsonObject } from '../json.js';
import { componentName, resolvePointer, schemaRefOf } from '../refs.js';
import { comparePatterns } from './pattern.js';

export type Effect = 'narrowed' | 'widened' | 'unprovable' | 'default' | 'annotation';

export interface Finding {
  /** JSON path of the value the finding is about, e.g. `params.block`, `result.transactions[*]`. */
  path: string;
  effect: Effect;
  detail: string;
}

type Family = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';
const FAMILIES: readonly Family[] = ['string', 'number', 'boolean', 'null', 'array', 'object'];

interface Branch {
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

const ANNOTATIONS = ['title', 'description', 'format'] as const;
/** Keywords that never change which values are accepted. */
const NON_ASSERTIONS = new Set(['$schema', '$id', '$comment', 'title', 'description', 'default', 'examples', 'format', 'readOnly', 'writeOnly', 'deprecated', 'definitions', '$defs']);
/** Assertion keywords compared one by one; any other assertion keyword makes a branch opaque. */
const ANALYSED = new Set([
  'type', 'enum', 'const', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'items', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'properties', 'required',
  'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties',
]);

function familyOf(value: unknown): { family: Family; integer: boolean } {
  if (value === null) return { family: 'null', integer: false };
  if (Array.isArray(value)) return { family: 'array', integer: false };
  if (typeof value === 'number') return { family: 'number', integer: Number.isInteger(value) };
  if (typeof value === 'object') return { family: 'object', integer: false };
  return { family: typeof value as Family, integer: false };
}

const show = (v: unknown): string => JSON.stringify(v);

/** `path.key`, or `path["odd key"]`: the JSON path of a member. */
export const child = (path: string, key: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${show(key)}]`);

/** Compares schemas of one document version (base) with those of another (head). */
export class SchemaComparer {
  private readonly unchangedMemo = new Map<string, boolean>();
  private readonly active = new Set<string>();

  constructor(
    private readonly base: JsonObject,
    private readonly head: JsonObject,
  ) {}

  /** Findings for a value described by `a` in the base document and by `b` in the head document. */
  compare(a: unknown, b: unknown, path: string, inComponent = false): Finding[] {
    if (this.unchanged(a, b)) return [];
    const ra = this.resolve(this.base, a);
    const rb = this.resolve(this.head, b);
    const key = `${ra.name ?? show(a)}|${rb.name ?? show(b)}`;
    // A recursive schema met again along the same path: assume equal there (its differences are reported once, above).
    if (this.active.has(key)) return [];
    this.active.add(key);
    try {
      const out: Finding[] = [];
      const within = inComponent || ra.name !== undefined || rb.name !== undefined;
      if (isObject(ra.schema) && isObject(rb.schema)) {
        if (!within) {
          for (const k of ANNOTATIONS) {
            if (!deepEqual(ra.schema[k], rb.schema[k])) out.push({ path, effect: 'annotation', detail: `${k} changed` });
          }
        }
        if (!deepEqual(ra.schema.default, rb.schema.default)) {
          out.push({ path, effect: 'default', detail: `default ${show(ra.schema.default)} → ${show(rb.schema.default)}` });
        }
      }
      out.push(...this.compareBranchSets(this.branches(this.base, a), this.branches(this.head, b), path, within));
      return out;
    } finally {
      this.active.delete(key);
    }
  }

  // ---- equality shortcut: same JSON and every component it references unchanged

  private unchanged(a: unknown, b: unknown): boolean {
    return deepEqual(a, b) && componentRefs(a).every((name) => this.componentUnchanged(name));
  }

  private componentUnchanged(name: string): boolean {
    const memo = this.unchangedMemo.get(name);
    if (memo !== undefined) return memo;
    this.unchangedMemo.set(name, true); // a cycle back here adds nothing new
    const a = componentSchemas(this.base)[name];
    const b = componentSchemas(this.head)[name];
    const result = a !== undefined && b !== undefined && this.unchanged(a, b);
    this.unchangedMemo.set(name, result);
    return result;
  }

  // ---- branches

  private resolve(doc: JsonObject, schema: unknown): { schema: unknown; name?: string } {
    let name: string | undefined;
    let cur = schema;
    for (let depth = 0; schemaRefOf(cur) !== undefined; depth++) {
      const ref = schemaRefOf(cur)!;
      if (depth > 32) throw new Error(`$ref cycle at "${ref}"`);
      name ??= componentName(ref);
      cur = resolvePointer(doc, ref);
    }
    return name === undefined ? { schema: cur } : { schema: cur, name };
  }

  private branches(doc: JsonObject, schema: unknown, depth = 0): Branch[] {
    const { schema: s, name } = this.resolve(doc, schema);
    const label = name ?? '';
    if (s === false) return [];
    if (!isObject(s)) return FAMILIES.map((family) => ({ family, integer: false, schema: {}, label }));
    if (depth > 32) return [{ family: 'object', integer: false, schema: s, label, opaque: 'schema nesting too deep' }];
    let own = ownBranches(s, label);
    if (Array.isArray(s.allOf)) {
      for (const member of s.allOf) own = intersect(own, this.branches(doc, member, depth + 1));
    }
    if (Array.isArray(s.oneOf) && Array.isArray(s.anyOf)) {
      own = own.map((b) => ({ ...b, opaque: 'both oneOf and anyOf' }));
    } else {
      const alternatives = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
      if (alternatives) own = intersect(own, alternatives.flatMap((alt) => this.branches(doc, alt, depth + 1)));
    }
    return own;
  }

  private compareBranchSets(as: Branch[], bs: Branch[], path: string, inComponent: boolean): Finding[] {
    const out: Finding[] = [];
    for (const family of FAMILIES) {
      const a = as.filter((x) => x.family === family);
      const b = bs.filter((x) => x.family === family);
      if (a.length === 0 && b.length === 0) continue;
      if (a.length === 0) {
        for (const x of b) out.push({ path, effect: 'widened', detail: `${describe(x)} is now allowed` });
      } else if (b.length === 0) {
        for (const x of a) out.push({ path, effect: 'narrowed', detail: `${describe(x)} is no longer allowed` });
      } else {
        out.push(...this.matchBranches(a, b, path, inComponent));
      }
    }
    return out;
  }

  /** Pairs branches of one type: equal ones, then by component name, then a last one each; reports the rest. */
  private matchBranches(as: Branch[], bs: Branch[], path: string, inComponent: boolean): Finding[] {
    const restA = [...as];
    const restB = [...bs];
    const pairs: [Branch, Branch, Finding[]][] = [];
    const take = (i: number, j: number, findings: Finding[]) => {
      pairs.push([restA[i]!, restB[j]!, findings]);
      restA.splice(i, 1);
      restB.splice(j, 1);
    };
    const findings = (x: Branch, y: Branch) => this.compareBranch(x, y, path, inComponent);
    for (let i = 0; i < restA.length; i++) {
      const j = restB.findIndex((y) => findings(restA[i]!, y).every((f) => f.effect === 'annotation'));
      if (j >= 0) take(i--, j, []);
    }
    for (let i = 0; i < restA.length; i++) {
      const j = restA[i]!.label === '' ? -1 : restB.findIndex((y) => y.label === restA[i]!.label);
      if (j >= 0) take(i, j, findings(restA[i--]!, restB[j]!));
    }
    if (restA.length === 1 && restB.length === 1) take(0, 0, findings(restA[0]!, restB[0]!));
    const several = as.length > 1 || bs.length > 1;
    const out: Finding[] = [];
    for (const [x, , fs] of pairs) {
      for (const f of fs) out.push(several ? { ...f, detail: `${describe(x)}: ${f.detail}` } : f);
    }
    for (const x of restA) {
      if (!bs.some((y) => findings(x, y).every((f) => f.effect === 'widened' || f.effect === 'annotation'))) {
        out.push({ path, effect: 'narrowed', detail: `${describe(x)} is no longer allowed` });
      }
    }
    for (const y of restB) {
      if (!as.some((x) => findings(x, y).every((f) => f.effect === 'narrowed' || f.effect === 'annotation'))) {
        out.push({ path, effect: 'widened', detail: `${describe(y)} is now allowed` });
      }
    }
    return out;
  }

  // ---- one branch against another of the same type

  private compareBranch(a: Branch, b: Branch, path: string, inComponent: boolean): Finding[] {
    if (a.opaque !== undefined || b.opaque !== undefined) {
      if (this.unchanged(a.schema, b.schema)) return [];
      return [{ path, effect: 'unprovable', detail: `cannot prove compatible (${a.opaque ?? b.opaque})` }];
    }
    const out: Finding[] = [];
    const x = a.schema;
    const y = b.schema;
    if (a.family === 'number' && a.integer !== b.integer) {
      out.push(a.integer ? { path, effect: 'widened', detail: 'non-integer numbers are now allowed' } : { path, effect: 'narrowed', detail: 'only integers are allowed now' });
    }
    if (x.enum !== undefined || y.enum !== undefined) return [...out, ...enumFindings(a, b, path)];
    switch (a.family) {
      case 'string':
        out.push(...patternFindings(x.pattern, y.pattern, path));
        out.push(...lowerBound('minLength', x.minLength, y.minLength, path), ...upperBound('maxLength', x.maxLength, y.maxLength, path));
        break;
      case 'number':
        out.push(...lowerBound('minimum', x.minimum, y.minimum, path), ...upperBound('maximum', x.maximum, y.maximum, path));
        out.push(...lowerBound('exclusiveMinimum', x.exclusiveMinimum, y.exclusiveMinimum, path));
        out.push(...upperBound('exclusiveMaximum', x.exclusiveMaximum, y.exclusiveMaximum, path));
        out.push(...multipleOfFindings(x.multipleOf, y.multipleOf, path));
        break;
      case 'array':
        out.push(...this.compareArrays(x, y, path, inComponent));
        break;
      case 'object':
        out.push(...this.compareObjects(x, y, path, inComponent));
        break;
      default:
        break;
    }
    return out;
  }

  private compareArrays(x: JsonObject, y: JsonObject, path: string, inComponent: boolean): Finding[] {
    const out: Finding[] = [];
    const tupleX = Array.isArray(x.items);
    const tupleY = Array.isArray(y.items);
    if (tupleX !== tupleY) {
      out.push({ path, effect: 'unprovable', detail: 'cannot prove compatible (items changed between a list schema and a tuple)' });
    } else if (tupleX) {
      const ix = x.items as unknown[];
      const iy = y.items as unknown[];
      for (let i = 0; i < Math.max(ix.length, iy.length); i++) {
        const sx = i < ix.length ? ix[i] : (x.additionalItems ?? true);
        const sy = i < iy.length ? iy[i] : (y.additionalItems ?? true);
        out.push(...this.compare(sx, sy, `${path}[${i}]`, inComponent));
      }
      out.push(...this.compare(x.additionalItems ?? true, y.additionalItems ?? true, `${path}[${Math.max(ix.length, iy.length)}…]`, inComponent));
    } else {
      out.push(...this.compare(x.items ?? true, y.items ?? true, `${path}[*]`, inComponent));
    }
    out.push(...lowerBound('minItems', x.minItems, y.minItems, path), ...upperBound('maxItems', x.maxItems, y.maxItems, path));
    if ((x.uniqueItems === true) !== (y.uniqueItems === true)) {
      out.push(y.uniqueItems === true ? { path, effect: 'narrowed', detail: 'items must now be unique' } : { path, effect: 'widened', detail: 'items no longer need to be unique' });
    }
    return out;
  }

  private compareObjects(x: JsonObject, y: JsonObject, path: string, inComponent: boolean): Finding[] {
    const out: Finding[] = [];
    const px = isObject(x.properties) ? x.properties : {};
    const py = isObject(y.properties) ? y.properties : {};
    const apX = x.additionalProperties ?? true;
    const apY = y.additionalProperties ?? true;
    if (!this.unchanged(x.patternProperties ?? {}, y.patternProperties ?? {})) {
      out.push({ path, effect: 'unprovable', detail: 'cannot prove compatible (patternProperties changed)' });
    }
    for (const key of [...new Set([...Object.keys(px), ...Object.keys(py)])]) {
      const at = child(path, key);
      const inX = Object.hasOwn(px, key);
      const inY = Object.hasOwn(py, key);
      const sx = inX ? px[key] : unlisted(x, key);
      const sy = inY ? py[key] : unlisted(y, key);
      if (!inX && isFalse(sx)) out.push({ path: at, effect: 'widened', detail: `member "${key}" is now allowed` });
      else if (!inY && isFalse(sy)) out.push({ path: at, effect: 'narrowed', detail: `member "${key}" is no longer allowed` });
      else if (!inX && sx === true) out.push({ path: at, effect: 'narrowed', detail: `member "${key}" is now constrained (the object was open, so any value was allowed)` });
      else if (!inY && sy === true) out.push({ path: at, effect: 'widened', detail: `member "${key}" is no longer constrained` });
      else out.push(...this.compare(sx, sy, at, inComponent));
    }
    const rx = new Set(stringList(x.required));
    const ry = new Set(stringList(y.required));
    for (const key of ry) if (!rx.has(key)) out.push({ path: child(path, key), effect: 'narrowed', detail: `member "${key}" is now required` });
    for (const key of rx) if (!ry.has(key)) out.push({ path: child(path, key), effect: 'widened', detail: `member "${key}" is no longer required (made optional)` });
    if (!this.unchanged(apX, apY)) {
      if (isFalse(apY) && apX === true) out.push({ path, effect: 'narrowed', detail: 'additionalProperties closed: members not listed are no longer allowed' });
      else if (isFalse(apX) && apY === true) out.push({ path, effect: 'widened', detail: 'additionalProperties opened: members not listed are now allowed' });
      else out.push(...this.compare(apX, apY, `${path}.*`, inComponent));
    }
    out.push(...this.compare(x.propertyNames ?? true, y.propertyNames ?? true, `${path}{names}`, inComponent));
    out.push(...lowerBound('minProperties', x.minProperties, y.minProperties, path), ...upperBound('maxProperties', x.maxProperties, y.maxProperties, path));
    return out;
  }
}

// ---- helpers

function componentSchemas(doc: JsonObject): JsonObject {
  const components = isObject(doc.components) ? doc.components : {};
  return isObject(components.schemas) ? components.schemas : {};
}

function componentRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) componentRefs(v, out);
  else if (isObject(value)) {
    const name = componentName(schemaRefOf(value) ?? '');
    if (name !== undefined) out.push(name);
    for (const v of Object.values(value)) componentRefs(v, out);
  }
  return out;
}

const isFalse = (s: unknown): boolean => s === false;

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The schema an object gives a member it does not list: a matching patternProperties entry, else additionalProperties. */
function unlisted(s: JsonObject, key: string): unknown {
  if (isObject(s.patternProperties)) {
    for (const [pattern, schema] of Object.entries(s.patternProperties)) {
      try {
        if (new RegExp(pattern, 'u').test(key)) return schema;
      } catch {
        return undefined;
      }
    }
  }
  return s.additionalProperties ?? true;
}

/** The branches of a schema without its allOf/oneOf/anyOf: one per JSON type it admits. */
function ownBranches(s: JsonObject, label: string): Branch[] {
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
function intersect(xs: Branch[], ys: Branch[]): Branch[] {
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

function describe(b: Branch): string {
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
function admits(b: Branch, v: unknown): boolean | undefined {
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

function enumFindings(a: Branch, b: Branch, path: string): Finding[] {
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

function patternFindings(a: unknown, b: unknown, path: string): Finding[] {
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

function lowerBound(name: string, a: unknown, b: unknown, path: string): Finding[] {
  if (a === b) return [];
  if (typeof a !== 'number') return [{ path, effect: 'narrowed', detail: `${name} ${show(b)} added` }];
  if (typeof b !== 'number') return [{ path, effect: 'widened', detail: `${name} ${a} removed` }];
  return [b > a ? { path, effect: 'narrowed', detail: `${name} raised from ${a} to ${b}` } : { path, effect: 'widened', detail: `${name} lowered from ${a} to ${b}` }];
}

function upperBound(name: string, a: unknown, b: unknown, path: string): Finding[] {
  if (a === b) return [];
  if (typeof a !== 'number') return [{ path, effect: 'narrowed', detail: `${name} ${show(b)} added` }];
  if (typeof b !== 'number') return [{ path, effect: 'widened', detail: `${name} ${a} removed` }];
  return [b < a ? { path, effect: 'narrowed', detail: `${name} lowered from ${a} to ${b}` } : { path, effect: 'widened', detail: `${name} raised from ${a} to ${b}` }];
}

function multipleOfFindings(a: unknown, b: unknown, path: string): Finding[] {
  if (a === b) return [];
  if (typeof a !== 'number') return [{ path, effect: 'narrowed', detail: `multipleOf ${show(b)} added` }];
  if (typeof b !== 'number') return [{ path, effect: 'widened', detail: `multipleOf ${a} removed` }];
  if (Number.isInteger(b / a)) return [{ path, effect: 'narrowed', detail: `multipleOf ${a} → ${b}` }];
  if (Number.isInteger(a / b)) return [{ path, effect: 'widened', detail: `multipleOf ${a} → ${b}` }];
  return [{ path, effect: 'unprovable', detail: `multipleOf ${a} → ${b}: cannot prove compatible` }];
}
