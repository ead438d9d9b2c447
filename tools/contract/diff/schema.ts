// Comparing two JSON Schemas by the values they accept: every place where the head schema accepts fewer values than
// the base (narrowed), more (widened), or where that cannot be decided (unprovable), with the JSON path of the place.
// `$ref`s (and `x-recursive-ref`s, refs.ts) are followed in each schema's own document. The method layer turns findings
// into breaking or non-breaking changes depending on the direction the values travel (params in, results out).
//
// A schema is split into branches, one per JSON type it admits and per oneOf/anyOf alternative (their common
// keywords merged in), so `{ "type": ["string", "null"] }` and `oneOf: [Quantity, BlockTag]` are compared the same
// way: branches of one type are paired (equal first, then by component name), and a branch left over was removed or
// added. oneOf's "exactly one" is read as anyOf: alternatives that start overlapping are not reported.

import { deepEqual, isObject, type JsonObject } from '../../../shared/contract/json.js';
import { componentName, resolvePointer, schemaRefOf } from '../../../shared/contract/refs.js';
import { FAMILIES, intersect, ownBranches, describe, show, type Branch } from './branches.js';
import { enumFindings, lowerBound, multipleOfFindings, patternFindings, upperBound, type Finding } from './findings.js';

export type { Effect, Finding } from './findings.js';

const ANNOTATIONS = ['title', 'description', 'format'] as const;

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
