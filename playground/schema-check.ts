// A small JSON Schema (draft-07 subset) validator for the playground page, which runs it in the browser on the
// schemas the node itself serves via rpc.discover — the same contract the server validates with ajv. It knows the
// keywords below; a schema using any other assertion keyword yields an "unsupported keyword" verdict instead of a
// silently wrong one. test/unit/schema-check.spec.ts checks it agrees with generated/ (ajv) on the contract.
// No Node APIs: it is served to the browser as is, with the two contract modules it imports.

import { deepEqual, isObject as isPlainObject } from "../shared/contract/json.js";
import { RECURSIVE_REF, RefError, resolvePointer } from "../shared/contract/refs.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface SchemaIssue {
  /** JS-style location inside the value: "" (the value itself), ".hash", ".transactions[0]". */
  path: string;
  message: string;
}

export type Verdict = { valid: true } | { valid: false; issue: SchemaIssue } | { valid: "unknown"; reason: string };

/** Keywords that never fail validation. `format` is documentation only, as for the server (ajv validateFormats: false). */
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "format",
  "readOnly",
  "writeOnly",
  "deprecated",
  "contentEncoding",
  "contentMediaType",
  "definitions",
  "$defs",
]);

const ASSERTIONS = new Set([
  "$ref",
  "type",
  "enum",
  "const",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "items",
  "additionalItems",
  "minItems",
  "maxItems",
  "uniqueItems",
  "contains",
  "properties",
  "patternProperties",
  "additionalProperties",
  "required",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "dependencies",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
]);

class Unsupported extends Error {}

type Schema = boolean | { [key: string]: unknown };

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function hasType(v: unknown, t: string): boolean {
  const actual = typeOf(v);
  return actual === t || (t === "number" && actual === "integer");
}

function joinPath(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

const patternCache = new Map<string, RegExp>();
function regex(p: string): RegExp {
  let r = patternCache.get(p);
  if (!r) {
    r = new RegExp(p, "u");
    patternCache.set(p, r);
  }
  return r;
}

/** A one-line name for a schema, for "must be one of" messages. */
function label(root: unknown, s: Schema, depth = 0): string {
  if (s === true) return "any value";
  if (s === false) return "nothing";
  if (depth > 6) return "value";
  if (typeof s.$ref === "string") {
    const name = s.$ref.split("/").pop() ?? s.$ref;
    return name;
  }
  if ("const" in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (typeof s.type === "string") return s.type;
  if (Array.isArray(s.type)) return s.type.join(" | ");
  const alts = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (alts) return alts.map((a) => label(root, a as Schema, depth + 1)).join(" | ");
  return "value";
}

class Checker {
  constructor(private readonly root: unknown) {}

  resolve(ref: string): Schema {
    const target = resolvePointer(this.root, ref);
    if (typeof target !== "boolean" && !isPlainObject(target)) throw new Unsupported(`$ref ${ref} is not a schema`);
    return target as Schema;
  }

  /** The first issue found, or null when `v` satisfies `s`. */
  check(v: unknown, s: Schema, path: string, depth = 0): SchemaIssue | null {
    if (depth > 200) throw new Unsupported("schema recursion too deep");
    if (s === true) return null;
    if (s === false) return { path, message: "no value is allowed here" };
    for (const k of Object.keys(s)) {
      if (!ASSERTIONS.has(k) && !ANNOTATIONS.has(k) && !k.startsWith("x-")) throw new Unsupported(`keyword "${k}"`);
    }
    const fail = (message: string, at = path): SchemaIssue => ({ path: at, message });

    if (typeof s.$ref === "string") {
      // draft-07: $ref ignores its siblings.
      return this.check(v, this.resolve(s.$ref), path, depth + 1);
    }
    // The component it stands for, in full (its own keywords are only the bound the reference tools see).
    const recursive = s[RECURSIVE_REF];
    if (typeof recursive === "string") return this.check(v, this.resolve(recursive), path, depth + 1);

    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
      if (!types.some((t) => hasType(v, t))) return fail(`must be ${types.join(" or ")}`);
    }
    if (Array.isArray(s.enum) && !s.enum.some((e) => deepEqual(e, v))) {
      return fail(`must be one of: ${s.enum.map((e) => JSON.stringify(e)).join(", ")}`);
    }
    if ("const" in s && !deepEqual(s.const, v)) return fail(`must be ${JSON.stringify(s.const)}`);

    if (typeof v === "string") {
      const len = [...v].length;
      if (typeof s.minLength === "number" && len < s.minLength) return fail(`must NOT have fewer than ${s.minLength} characters`);
      if (typeof s.maxLength === "number" && len > s.maxLength) return fail(`must NOT have more than ${s.maxLength} characters`);
      if (typeof s.pattern === "string" && !regex(s.pattern).test(v)) return fail(`must match pattern ${JSON.stringify(s.pattern)}`);
    }

    if (typeof v === "number") {
      if (typeof s.minimum === "number" && v < s.minimum) return fail(`must be >= ${s.minimum}`);
      if (typeof s.maximum === "number" && v > s.maximum) return fail(`must be <= ${s.maximum}`);
      if (typeof s.exclusiveMinimum === "number" && v <= s.exclusiveMinimum) return fail(`must be > ${s.exclusiveMinimum}`);
      if (typeof s.exclusiveMaximum === "number" && v >= s.exclusiveMaximum) return fail(`must be < ${s.exclusiveMaximum}`);
      if (typeof s.multipleOf === "number") {
        const q = v / s.multipleOf;
        if (Math.abs(q - Math.round(q)) > 1e-9) return fail(`must be multiple of ${s.multipleOf}`);
      }
    }

    if (Array.isArray(v)) {
      if (typeof s.minItems === "number" && v.length < s.minItems) return fail(`must NOT have fewer than ${s.minItems} items`);
      if (typeof s.maxItems === "number" && v.length > s.maxItems) return fail(`must NOT have more than ${s.maxItems} items`);
      if (Array.isArray(s.items)) {
        const tuple = s.items as Schema[];
        for (let i = 0; i < Math.min(tuple.length, v.length); i++) {
          const issue = this.check(v[i], tuple[i]!, joinPath(path, i), depth + 1);
          if (issue) return issue;
        }
        if (s.additionalItems !== undefined && v.length > tuple.length) {
          if (s.additionalItems === false) return fail(`must NOT have more than ${tuple.length} items`);
          for (let i = tuple.length; i < v.length; i++) {
            const issue = this.check(v[i], s.additionalItems as Schema, joinPath(path, i), depth + 1);
            if (issue) return issue;
          }
        }
      } else if (s.items !== undefined) {
        for (let i = 0; i < v.length; i++) {
          const issue = this.check(v[i], s.items as Schema, joinPath(path, i), depth + 1);
          if (issue) return issue;
        }
      }
      if (s.uniqueItems === true) {
        for (let i = 0; i < v.length; i++) {
          for (let j = i + 1; j < v.length; j++) {
            if (deepEqual(v[i], v[j])) return fail(`must NOT have duplicate items (items ## ${j} and ${i} are identical)`);
          }
        }
      }
      if (s.contains !== undefined && !v.some((x) => this.check(x, s.contains as Schema, path, depth + 1) === null)) {
        return fail("must contain at least 1 valid item");
      }
    }

    if (isPlainObject(v)) {
      const keys = Object.keys(v);
      if (typeof s.minProperties === "number" && keys.length < s.minProperties) return fail(`must NOT have fewer than ${s.minProperties} properties`);
      if (typeof s.maxProperties === "number" && keys.length > s.maxProperties) return fail(`must NOT have more than ${s.maxProperties} properties`);
      if (Array.isArray(s.required)) {
        for (const r of s.required as string[]) if (!Object.hasOwn(v, r)) return fail(`must have required property ${JSON.stringify(r)}`);
      }
      const props = isPlainObject(s.properties) ? s.properties : {};
      const patterns = isPlainObject(s.patternProperties) ? Object.entries(s.patternProperties) : [];
      for (const k of keys) {
        if (s.propertyNames !== undefined) {
          const issue = this.check(k, s.propertyNames as Schema, path, depth + 1);
          if (issue) return fail(`property name ${JSON.stringify(k)} is invalid: ${issue.message}`);
        }
        let matched = false;
        if (Object.hasOwn(props, k)) {
          matched = true;
          const issue = this.check(v[k], props[k] as Schema, joinPath(path, k), depth + 1);
          if (issue) return issue;
        }
        for (const [p, ps] of patterns) {
          if (regex(p).test(k)) {
            matched = true;
            const issue = this.check(v[k], ps as Schema, joinPath(path, k), depth + 1);
            if (issue) return issue;
          }
        }
        if (!matched && s.additionalProperties !== undefined) {
          if (s.additionalProperties === false) return fail(`must NOT have additional property ${JSON.stringify(k)}`);
          const issue = this.check(v[k], s.additionalProperties as Schema, joinPath(path, k), depth + 1);
          if (issue) return issue;
        }
      }
      if (isPlainObject(s.dependencies)) {
        for (const [k, dep] of Object.entries(s.dependencies)) {
          if (!Object.hasOwn(v, k)) continue;
          if (Array.isArray(dep)) {
            for (const d of dep as string[]) if (!Object.hasOwn(v, d)) return fail(`must have property ${JSON.stringify(d)} when property ${JSON.stringify(k)} is present`);
          } else {
            const issue = this.check(v, dep as Schema, path, depth + 1);
            if (issue) return issue;
          }
        }
      }
    }

    if (Array.isArray(s.allOf)) {
      for (const sub of s.allOf as Schema[]) {
        const issue = this.check(v, sub, path, depth + 1);
        if (issue) return issue;
      }
    }
    for (const kw of ["anyOf", "oneOf"] as const) {
      const alts = s[kw];
      if (!Array.isArray(alts)) continue;
      const issues = (alts as Schema[]).map((sub) => this.check(v, sub, path, depth + 1));
      const passing = issues.filter((i) => i === null).length;
      if (kw === "oneOf" && passing > 1) return fail("must match exactly one schema in oneOf");
      if (passing === 0) {
        // Prefer the alternative that got deepest into the value; else summarise the alternatives.
        const deepest = issues.reduce<SchemaIssue | null>((best, i) => (i && i.path.length > (best?.path.length ?? path.length) ? i : best), null);
        if (deepest) return deepest;
        return fail(`must be one of: ${(alts as Schema[]).map((a) => label(this.root, a)).join(", ")}`);
      }
    }
    if (s.not !== undefined && this.check(v, s.not as Schema, path, depth + 1) === null) return fail("must NOT be valid");
    if (s.if !== undefined) {
      const branch = this.check(v, s.if as Schema, path, depth + 1) === null ? s.then : s.else;
      if (branch !== undefined) {
        const issue = this.check(v, branch as Schema, path, depth + 1);
        if (issue) return issue;
      }
    }
    return null;
  }
}

/**
 * Validates `value` against `schema`, whose local `$ref`s ("#/components/schemas/…") resolve against `root`
 * (the OpenRPC document).
 */
export function checkSchema(root: unknown, schema: unknown, value: unknown): Verdict {
  if (typeof schema !== "boolean" && !isPlainObject(schema)) return { valid: "unknown", reason: "no schema" };
  try {
    const issue = new Checker(root).check(value, schema as Schema, "");
    return issue ? { valid: false, issue } : { valid: true };
  } catch (error) {
    if (error instanceof Unsupported) return { valid: "unknown", reason: `cannot validate: unsupported ${error.message}` };
    if (error instanceof RefError) return { valid: "unknown", reason: `cannot validate: ${error.message}` };
    if (error instanceof SyntaxError) return { valid: "unknown", reason: `cannot validate: bad pattern (${error.message})` };
    throw error;
  }
}
