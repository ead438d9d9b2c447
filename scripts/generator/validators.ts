/**
 * generated/validators.ts and generated/validators/: ajv standalone validators for every param and result, compiled
 * here so the node compiles no schema at start-up. Each oneOf/anyOf carries an `x-expected` summary for
 * generated/index.ts's messages.
 */
import AjvModule from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import { isObject, type JsonObject } from "../../shared/contract/json.js";
import { RECURSIVE_REF, resolvePointer } from "../../shared/contract/refs.js";
import { SCHEMA_ARRAY_KEYWORDS, SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS } from "../../tools/contract/schema-walk.js";
import { GenerateError, isSchema, type Model, type Schema } from "./model.js";
import { HEADER } from "./output.js";
import { TypeEmitter } from "./typescript.js";

// ajv is CommonJS; under NodeNext the default import is `module.exports`, whose `.default` is the class.
const Ajv = AjvModule.default;
const standaloneCode = standaloneModule.default;

/** Base URI under which schemas are registered with ajv (never fetched). */
const BASE_URI = "https://openrpc.invalid/";
const DOC_ID = `${BASE_URI}openrpc.json`;

function joinOr(labels: string[]): string {
  const uniq = [...new Set(labels)];
  if (uniq.length <= 1) return uniq[0] ?? "";
  if (uniq.length === 2) return `${uniq[0]} or ${uniq[1]}`;
  return `${uniq.slice(0, -1).join(", ")}, or ${uniq[uniq.length - 1]}`;
}

/** A short human label for a schema, used to summarise failed oneOf/anyOf alternatives. */
function schemaLabel(model: Model, em: TypeEmitter, s: Schema, depth = 0): string {
  if (s === true) return "any value";
  if (s === false) return "nothing";
  if (depth > 8) return "value";
  if (typeof s.$ref === "string") {
    const key = em.componentRef(s.$ref);
    const target = key !== undefined ? model.components[key]! : (resolvePointer(model.doc, s.$ref) as Schema);
    const own = ownLabel(target);
    if (own) return own;
    if (key !== undefined && isObject(target) && (target.type === "object" || isObject(target.properties))) return key;
    return schemaLabel(model, em, target, depth + 1);
  }
  return ownLabel(s) ?? synthLabel(model, em, s, depth);
}

function ownLabel(s: Schema): string | undefined {
  if (!isObject(s)) return undefined;
  let label: string | undefined;
  const d = typeof s.description === "string" ? firstClause(s.description) : "";
  const t = typeof s.title === "string" ? s.title.trim() : "";
  if (d && d.length <= 80) label = d;
  else if (t) label = t;
  if (label && Array.isArray(s.enum) && s.enum.every((v) => typeof v === "string")) {
    const vals = s.enum as string[];
    if (!vals.every((v) => label!.includes(v))) label = `${label} (${vals.join("|")})`;
  }
  return label;
}

/** "Unsigned integer (up to 256 bits) supplied by a client: hex …" → "unsigned integer (up to 256 bits) supplied by a client" */
function firstClause(text: string): string {
  let out = "";
  let depth = 0;
  const t = text.trim();
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === "\n" || ((c === ":" || c === ";" || c === "." || c === ",") && (i + 1 === t.length || t[i + 1] === " ")))) {
      break;
    }
    out += c;
  }
  out = out.trim();
  // Lower-case a capitalised ordinary word ("Unsigned" → "unsigned"), keep acronyms ("EIP-1898").
  if (/^[A-Z]([a-z]|\s)/.test(out)) out = out[0]!.toLowerCase() + out.slice(1);
  return out;
}

function synthLabel(model: Model, em: TypeEmitter, s: JsonObject, depth: number): string {
  if ("const" in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join("|");
  const alts = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (alts) return joinOr(alts.map((b) => schemaLabel(model, em, b as Schema, depth + 1)));
  if (Array.isArray(s.allOf) && s.allOf.length > 0 && s.type === undefined) {
    return schemaLabel(model, em, s.allOf[0] as Schema, depth + 1);
  }
  const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? (s.type as string[]) : [];
  if (types.length === 0) return isObject(s.properties) ? "object" : "value";
  return joinOr(
    types.map((t) => {
      if (t === "string" && typeof s.pattern === "string") return `string matching ${s.pattern}`;
      if (t === "array" && isSchema(s.items) && !Array.isArray(s.items)) {
        return `array of ${schemaLabel(model, em, s.items, depth + 1)}`;
      }
      if (t === "integer") return "number";
      return t;
    }),
  );
}

/**
 * Whether `keyword` only documents (a validator never reads it): left out of the validators' schemas, which the
 * generated code carries as data. `x-expected` stays: generated/index.ts reads it back.
 */
function isAnnotation(keyword: string): boolean {
  return ANNOTATIONS.includes(keyword) || (keyword.startsWith("x-") && keyword !== "x-expected");
}

const ANNOTATIONS = ["title", "description", "summary", "examples", "$comment", "deprecated"];

/**
 * Deep-copies a schema for ajv, without its annotations ({@link isAnnotation}): local `#...` refs become absolute (so they resolve from any schema), and
 * every oneOf/anyOf gets an `x-expected` annotation (a readable summary of its alternatives) that
 * generated/index.ts reads back from `error.parentSchema` (ajv `verbose`).
 */
function prepareForAjv(model: Model, em: TypeEmitter, s: Schema): Schema {
  if (!isObject(s)) return s;
  // The component an x-recursive-ref names, in full, to any depth (ajv follows a recursive $ref).
  if (em.recursiveRef(s) !== undefined) return { $ref: DOC_ID + (s[RECURSIVE_REF] as string) };
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(s)) {
    if (isAnnotation(k)) continue;
    if (k === "$ref" && typeof v === "string") {
      out[k] = v.startsWith("#") ? DOC_ID + v : v;
    } else if (SCHEMA_MAP_KEYWORDS.includes(k) && isObject(v)) {
      const m: JsonObject = {};
      for (const [pk, pv] of Object.entries(v)) m[pk] = isSchema(pv) ? prepareForAjv(model, em, pv) : pv;
      out[k] = m;
    } else if (SCHEMA_ARRAY_KEYWORDS.includes(k) && Array.isArray(v)) {
      out[k] = v.map((x) => (isSchema(x) ? prepareForAjv(model, em, x) : x));
    } else if (SCHEMA_KEYWORDS.includes(k) && isSchema(v)) {
      out[k] = prepareForAjv(model, em, v);
    } else {
      out[k] = v;
    }
  }
  const alts = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (alts && !("x-expected" in s)) {
    out["x-expected"] = joinOr(alts.map((b) => schemaLabel(model, em, b as Schema)));
  }
  return out;
}

/** Where a method's validators live, under generated/ (see {@link renderValidators}). */
export function validatorFile(method: string): string {
  return `validators/${method}.cjs`;
}

/**
 * The validators' files: one CommonJS module per method (its params' validators `p0`, `p1`, … and its result's,
 * `result`), and validators.ts, which loads a method's module the first time its validators are asked for. A node
 * run calls few of the contract's methods; loading all of them up front cost ~19 ms of start-up and ~6 MB of
 * memory. CommonJS, because `require` loads synchronously, so validation stays a plain function call.
 */
export function renderValidators(model: Model): Map<string, string> {
  const em = new TypeEmitter(model);
  const ajv = new Ajv({
    code: { source: true, esm: false, lines: true },
    allErrors: false,
    strict: false,
    verbose: true, // errors carry parentSchema → `x-expected` summaries for oneOf/anyOf
    validateFormats: false, // no format plugins: formats are documentation only
    inlineRefs: false, // one shared function per referenced component instead of inlined copies
    logger: false,
  });
  const componentsCopy: JsonObject = {};
  for (const key of model.componentNames) componentsCopy[key] = prepareForAjv(model, em, model.components[key]!);
  ajv.addSchema({ $id: DOC_ID, components: { schemas: componentsCopy } });

  const files = new Map<string, string>([["validators.ts", renderLoader()]]);
  for (const m of model.methods) {
    const enc = encodeURIComponent(m.name);
    const exportsMap: Record<string, string> = {};
    m.params.forEach((p, i) => {
      const id = `${BASE_URI}methods/${enc}/params/${i}`;
      const prepared = prepareForAjv(model, em, p.schema);
      ajv.addSchema(isObject(prepared) ? { ...prepared, $id: id } : { $id: id, ...(prepared ? {} : { not: {} }) });
      exportsMap[`p${i}`] = id;
    });
    const rid = `${BASE_URI}methods/${enc}/result`;
    const prepared = prepareForAjv(model, em, m.result);
    ajv.addSchema(isObject(prepared) ? { ...prepared, $id: rid } : { $id: rid, ...(prepared ? {} : { not: {} }) });
    exportsMap.result = rid;
    let code: string;
    try {
      code = standaloneCode(ajv, exportsMap);
    } catch (e) {
      throw new GenerateError(`ajv could not compile the schemas of ${m.name}: ${(e as Error).message}`);
    }
    files.set(validatorFile(m.name), `${HEADER}\n${asciiOnly(code).trimEnd()}\n`);
  }
  return files;
}

/**
 * `code` with every character beyond ASCII written as a \u escape (they occur only in string literals and
 * comments): V8 keeps a module's source in memory, at two bytes a character once one of them is not Latin-1.
 */
function asciiOnly(code: string): string {
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** generated/validators.ts: each method's validators, loaded from its module when first used. */
function renderLoader(): string {
  return `${HEADER}
import { createRequire } from "node:module";
import type { ErrorObject } from "ajv";
import { methodNames, methodParams, type MethodName } from "./methods.js";

/** An ajv standalone validator: returns true when valid, otherwise sets \`errors\`. */
export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

interface MethodValidators {
  params: ValidateFunction[];
  result: ValidateFunction;
}

const load = createRequire(import.meta.url);
const loaded = new Map<MethodName, MethodValidators>();

function validatorsOf(method: MethodName): MethodValidators {
  let validators = loaded.get(method);
  if (validators === undefined) {
    const module = load(\`./validators/\${method}.cjs\`) as Record<string, ValidateFunction>;
    validators = { params: methodParams[method].map((_param, i) => module[\`p\${i}\`]!), result: module.result! };
    loaded.set(method, validators);
  }
  return validators;
}

/** A record with one member per method, each read from the method's validators (loading them) when first asked for. */
function byMethod<T>(pick: (validators: MethodValidators) => T): Record<MethodName, T> {
  const record = {} as Record<MethodName, T>;
  for (const method of methodNames) {
    Object.defineProperty(record, method, { enumerable: true, get: () => pick(validatorsOf(method)) });
  }
  return record;
}

/** One validator per positional param, in order. */
export const paramValidators: Record<MethodName, ValidateFunction[]> = byMethod((validators) => validators.params);

/** One validator per method result. */
export const resultValidators: Record<MethodName, ValidateFunction> = byMethod((validators) => validators.result);
`;
}
