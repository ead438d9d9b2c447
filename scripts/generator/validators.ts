/**
 * generated/validators.ts: ajv standalone validators for every param and result, compiled here so the node compiles
 * no schema at start-up. Each oneOf/anyOf carries an `x-expected` summary for generated/index.ts's messages.
 */
import AjvModule from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import { isObject, type JsonObject } from "../../src/contract/json.js";
import { resolvePointer } from "../../src/contract/refs.js";
import { GenerateError, isSchema, type Model, type Schema } from "./model.js";
import { HEADER } from "./output.js";
import { TypeEmitter } from "./typescript.js";

// ajv is CommonJS; under NodeNext the default import is `module.exports`, whose `.default` is the class.
const Ajv = AjvModule.default;
const standaloneCode = standaloneModule.default;

/** Base URI under which schemas are registered with ajv (never fetched). */
const BASE_URI = "https://openrpc.invalid/";
const DOC_ID = `${BASE_URI}openrpc.json`;

const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "definitions", "$defs", "dependencies"];
const SCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "items"];
const SCHEMA_KEYWORDS = [
  "additionalProperties",
  "additionalItems",
  "items",
  "not",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
];

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
 * Deep-copies a schema for ajv: local `#...` refs become absolute (so they resolve from any schema), and
 * every oneOf/anyOf gets an `x-expected` annotation (a readable summary of its alternatives) that
 * generated/index.ts reads back from `error.parentSchema` (ajv `verbose`).
 */
function prepareForAjv(model: Model, em: TypeEmitter, s: Schema): Schema {
  if (!isObject(s)) return s;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(s)) {
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

function exportName(prefix: string, method: string, suffix = ""): string {
  return `${prefix}_${method.replace(/[^A-Za-z0-9_$]/g, "_")}${suffix}`;
}

export function renderValidators(model: Model): string {
  const em = new TypeEmitter(model);
  const ajv = new Ajv({
    code: { source: true, esm: true, lines: true },
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

  const exportsMap: Record<string, string> = {};
  const used = new Map<string, string>();
  const claim = (name: string, owner: string): string => {
    const prev = used.get(name);
    if (prev) throw new GenerateError(`validator export name ${name} collides (${prev} / ${owner})`);
    used.set(name, owner);
    return name;
  };
  for (const m of model.methods) {
    const enc = encodeURIComponent(m.name);
    m.params.forEach((p, i) => {
      const id = `${BASE_URI}methods/${enc}/params/${i}`;
      const prepared = prepareForAjv(model, em, p.schema);
      ajv.addSchema(isObject(prepared) ? { ...prepared, $id: id } : { $id: id, ...(prepared ? {} : { not: {} }) });
      exportsMap[claim(exportName("param", m.name, `_${i}`), m.name)] = id;
    });
    const rid = `${BASE_URI}methods/${enc}/result`;
    const prepared = prepareForAjv(model, em, m.result);
    ajv.addSchema(isObject(prepared) ? { ...prepared, $id: rid } : { $id: rid, ...(prepared ? {} : { not: {} }) });
    exportsMap[claim(exportName("result", m.name), m.name)] = rid;
  }

  let code: string;
  try {
    code = standaloneCode(ajv, exportsMap);
  } catch (e) {
    throw new GenerateError(`ajv could not compile the contract's schemas: ${(e as Error).message}`);
  }

  // ajv's ESM output still `require`s its runtime helpers; turn those into ESM imports of the CJS files.
  code = code.replace(/^"use strict";\n?/, "");
  const imports = new Map<string, string>();
  code = code.replace(/require\("([^"]+)"\)/g, (_m, spec: string) => {
    const file = spec.endsWith(".js") ? spec : `${spec}.js`;
    let local = imports.get(file);
    if (!local) {
      local = `ajvRuntime_${file.replace(/^ajv\/dist\/runtime\//, "").replace(/\.js$/, "").replace(/[^A-Za-z0-9]/g, "_")}`;
      imports.set(file, local);
    }
    return local;
  });
  if (/\brequire\(/.test(code)) throw new GenerateError("unexpected require() left in ajv standalone output");

  const out: string[] = [HEADER, "// @ts-nocheck", "/* eslint-disable */", ""];
  out.push('import type { ErrorObject } from "ajv";');
  out.push('import type { MethodName } from "./methods.js";');
  for (const [file, local] of [...imports].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    out.push(`import ${local} from ${JSON.stringify(file)};`);
  }
  out.push("");
  out.push("/** An ajv standalone validator: returns true when valid, otherwise sets `errors`. */");
  out.push("export interface ValidateFunction {", "  (data: unknown): boolean;", "  errors?: ErrorObject[] | null;", "}", "");
  out.push(code.trimEnd(), "");
  out.push("/** One validator per positional param, in order. */");
  out.push("export const paramValidators: Record<MethodName, ValidateFunction[]> = {");
  for (const m of model.methods) {
    const names = m.params.map((_p, i) => exportName("param", m.name, `_${i}`));
    out.push(`  ${JSON.stringify(m.name)}: [${names.join(", ")}],`);
  }
  out.push("};", "");
  out.push("/** One validator per method result. */");
  out.push("export const resultValidators: Record<MethodName, ValidateFunction> = {");
  for (const m of model.methods) out.push(`  ${JSON.stringify(m.name)}: ${exportName("result", m.name)},`);
  out.push("};");
  return out.join("\n") + "\n";
}
