/**
 * JSON Schema → TypeScript: the type emission shared by generated/types.ts, the client SDK's types and docs/api.md.
 * Component refs become the component's type name; everything else is emitted structurally.
 */
import { isObject, type JsonObject } from "../../shared/contract/json.js";
import { RECURSIVE_REF, componentName, resolvePointer } from "../../shared/contract/refs.js";
import { GenerateError, IDENT, JS_RESERVED, isSchema, type Model, type Schema } from "./model.js";
import { HEADER } from "./output.js";

/** Precedence of an emitted type expression: 0 = union, 1 = intersection, 2 = atom (safe anywhere). */
interface TsType {
  s: string;
  p: 0 | 1 | 2;
}

const atom = (s: string): TsType => ({ s, p: 2 });
const UNKNOWN = atom("unknown");
const NEVER = atom("never");

function paren(t: TsType, min: 0 | 1 | 2): string {
  return t.p >= min ? t.s : `(${t.s})`;
}

function union(members: TsType[]): TsType {
  const flat: TsType[] = [];
  const seen = new Set<string>();
  for (const m of members) {
    if (m.s === "never") continue;
    if (m.s === "unknown") return UNKNOWN;
    if (seen.has(m.s)) continue;
    seen.add(m.s);
    flat.push(m);
  }
  if (flat.length === 0) return NEVER;
  if (flat.length === 1) return flat[0]!;
  return { s: flat.map((m) => paren(m, 1)).join(" | "), p: 0 };
}

function intersection(members: TsType[]): TsType {
  const flat: TsType[] = [];
  const seen = new Set<string>();
  for (const m of members) {
    if (m.s === "unknown") continue;
    if (m.s === "never") return NEVER;
    if (seen.has(m.s)) continue;
    seen.add(m.s);
    flat.push(m);
  }
  if (flat.length === 0) return UNKNOWN;
  if (flat.length === 1) return flat[0]!;
  return { s: flat.map((m) => paren(m, 1)).join(" & "), p: 1 };
}

function literal(v: unknown, indent: string): TsType {
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
    return atom(JSON.stringify(v));
  }
  if (Array.isArray(v)) return atom(`[${v.map((x) => literal(x, indent).s).join(", ")}]`);
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return atom("Record<string, never>");
    return atom(`{ ${keys.map((k) => `${propKey(k)}: ${literal(v[k], indent).s}`).join("; ")} }`);
  }
  return UNKNOWN;
}

function propKey(k: string): string {
  return IDENT.test(k) ? k : JSON.stringify(k);
}

export function docComment(text: string | undefined, indent: string): string {
  if (!text) return "";
  const lines = text.replace(/\*\//g, "*\\/").replace(/\r\n?/g, "\n").trimEnd().split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)).join("\n")}\n${indent} */\n`;
}

export function schemaComment(s: Schema, name?: string): string | undefined {
  if (!isObject(s)) return undefined;
  const parts: string[] = [];
  if (typeof s.title === "string" && s.title.trim() && s.title.trim() !== name) parts.push(s.title.trim());
  if (typeof s.description === "string" && s.description.trim()) parts.push(s.description.trim());
  return parts.length ? parts.join("\n\n") : undefined;
}

/** How the emitter types schemas the TypeScript type system can say more about than the node needs. */
export interface EmitOptions {
  /**
   * A string schema whose pattern demands a `0x` prefix becomes `` `0x${string}` `` (viem's `Hex`) instead of
   * `string`. The client SDK uses it; the node's own types keep `string`, which is what its handlers and
   * formatters build with.
   */
  hexStrings?: boolean;
}

/** True when `pattern` can only match strings starting with `0x`: it begins `^0x` and has no top-level `|`. */
export function requiresHexPrefix(pattern: string): boolean {
  if (!pattern.startsWith("^0x")) return false;
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return false;
  }
  return true;
}

const OBJECT_KEYWORDS = ["properties", "additionalProperties", "patternProperties", "required", "minProperties"];
const ARRAY_KEYWORDS = ["items", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains"];

/** The JSON types a schema admits by its `type`, else by the keywords it uses (`properties`: object); undefined for neither. */
export function schemaTypes(s: JsonObject): string[] | undefined {
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === "string");
  const inferred = [...(OBJECT_KEYWORDS.some((k) => k in s) ? ["object"] : []), ...(ARRAY_KEYWORDS.some((k) => k in s) ? ["array"] : [])];
  return inferred.length > 0 ? inferred : undefined;
}

export class TypeEmitter {
  constructor(
    private readonly model: Model,
    private readonly options: EmitOptions = {},
  ) {}

  /**
   * The component a schema's `x-recursive-ref` names (shared/contract/refs.ts): the type is that component's, the
   * schema's own keywords only the bound the reference tools see. Undefined when the schema has none.
   */
  recursiveRef(s: JsonObject): string | undefined {
    const ref = s[RECURSIVE_REF];
    if (ref === undefined) return undefined;
    const key = typeof ref === "string" ? this.componentRef(ref) : undefined;
    if (key === undefined) throw new GenerateError(`${RECURSIVE_REF} ${JSON.stringify(ref)} names no components.schemas entry`);
    return key;
  }

  /** The component key named by a `#/components/schemas/Key` ref, or undefined. */
  componentRef(ref: string): string | undefined {
    const decoded = componentName(ref);
    if (decoded === undefined) return undefined;
    if (!Object.prototype.hasOwnProperty.call(this.model.components, decoded)) {
      throw new GenerateError(`$ref "${ref}" names no components.schemas entry`);
    }
    return decoded;
  }

  emit(schema: Schema, indent: string, depth = 0): TsType {
    if (depth > 64) throw new GenerateError("schema nesting too deep (unsupported recursive inline $ref?)");
    if (schema === true) return UNKNOWN;
    if (schema === false) return NEVER;
    const s = schema;

    if (typeof s.$ref === "string") {
      const key = this.componentRef(s.$ref);
      if (key !== undefined) return atom(key);
      const target = resolvePointer(this.model.doc, s.$ref);
      if (!isSchema(target)) throw new GenerateError(`$ref "${s.$ref}" does not point at a schema`);
      return this.emit(target, indent, depth + 1);
    }
    const recursive = this.recursiveRef(s);
    if (recursive !== undefined) return atom(recursive);

    const parts: TsType[] = [];
    const base = this.emitBase(s, indent, depth);
    if (base) parts.push(base);
    if (Array.isArray(s.allOf)) for (const b of s.allOf) parts.push(this.emit(b as Schema, indent, depth + 1));
    if (Array.isArray(s.oneOf)) parts.push(union(s.oneOf.map((b) => this.emit(b as Schema, indent, depth + 1))));
    if (Array.isArray(s.anyOf)) parts.push(union(s.anyOf.map((b) => this.emit(b as Schema, indent, depth + 1))));
    return intersection(parts);
  }

  /** Everything except allOf/oneOf/anyOf; undefined when the schema places no type constraint itself. */
  private emitBase(s: JsonObject, indent: string, depth: number): TsType | undefined {
    if ("const" in s) return literal(s.const, indent);
    if (Array.isArray(s.enum)) return union(s.enum.map((v) => literal(v, indent)));

    const types = schemaTypes(s);
    return types === undefined ? undefined : union(types.map((t) => this.emitType(t, s, indent, depth)));
  }

  private emitType(t: string, s: JsonObject, indent: string, depth: number): TsType {
    switch (t) {
      case "string":
        return atom(this.options.hexStrings && typeof s.pattern === "string" && requiresHexPrefix(s.pattern) ? "`0x${string}`" : "string");
      case "integer":
      case "number":
        return atom("number");
      case "boolean":
        return atom("boolean");
      case "null":
        return atom("null");
      case "array":
        return this.emitArray(s, indent, depth);
      case "object":
        return this.emitObject(s, indent, depth);
      default:
        throw new GenerateError(`unknown JSON Schema type "${t}"`);
    }
  }

  private emitArray(s: JsonObject, indent: string, depth: number): TsType {
    const items = s.items;
    if (Array.isArray(items)) {
      const min = typeof s.minItems === "number" ? s.minItems : 0;
      const max = typeof s.maxItems === "number" ? s.maxItems : Infinity;
      const elems = items.map((it, i) => {
        const t = this.emit(it as Schema, indent, depth + 1).s;
        return i >= min ? `${paren({ s: t, p: t.includes("|") || t.includes("&") ? 0 : 2 }, 2)}?` : t;
      });
      const closed = s.additionalItems === false || max <= items.length;
      if (!closed) {
        const rest = isSchema(s.additionalItems) ? this.emit(s.additionalItems, indent, depth + 1) : UNKNOWN;
        elems.push(`...${paren(rest, 2)}[]`);
      }
      return atom(`[${elems.join(", ")}]`);
    }
    const el = isSchema(items) ? this.emit(items, indent, depth + 1) : UNKNOWN;
    return atom(`${paren(el, 2)}[]`);
  }

  private emitObject(s: JsonObject, indent: string, depth: number): TsType {
    const inner = indent + "  ";
    const props = isObject(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : []);
    const lines: string[] = [];
    const keys = Object.keys(props);
    for (const k of keys) {
      const ps = props[k] as Schema;
      const t = this.emit(ps, inner, depth + 1);
      const comment = isObject(ps) && typeof ps.$ref !== "string" ? schemaComment(ps) : undefined;
      lines.push(`${docComment(comment, inner)}${inner}${propKey(k)}${required.has(k) ? "" : "?"}: ${t.s};`);
    }
    for (const k of required) {
      if (!(k in props)) lines.push(`${inner}${propKey(k)}: unknown;`);
    }

    // Index signature: explicit additionalProperties / patternProperties only. An object schema that lists
    // properties and says nothing about additionalProperties is typed as closed (the contract's intent);
    // one that lists nothing is an open map.
    const ap = s.additionalProperties;
    const indexTypes: TsType[] = [];
    if (isObject(s.patternProperties)) {
      for (const v of Object.values(s.patternProperties)) indexTypes.push(this.emit(v as Schema, inner, depth + 1));
    }
    if (ap === true || (ap === undefined && keys.length === 0 && indexTypes.length === 0)) indexTypes.push(UNKNOWN);
    else if (isObject(ap)) indexTypes.push(this.emit(ap, inner, depth + 1));
    if (indexTypes.length > 0) {
      // Named properties must be assignable to the index signature type.
      const idx = keys.length > 0 ? UNKNOWN : union(indexTypes);
      if (keys.length === 0 && required.size === 0) {
        return atom(`{ [key: string]: ${idx.s} }`);
      }
      lines.push(`${inner}[key: string]: ${idx.s};`);
    }
    if (lines.length === 0) return atom("Record<string, never>");
    return atom(`{\n${lines.join("\n")}\n${indent}}`);
  }
}

export function renderTypes(model: Model, options: EmitOptions = {}): string {
  const em = new TypeEmitter(model, options);
  const out: string[] = [HEADER, "/* eslint-disable */", ""];
  out.push("// ---- components.schemas ----", "");
  for (const key of model.componentNames) {
    const s = model.components[key]!;
    out.push(`${docComment(schemaComment(s, key), "")}export type ${key} = ${em.emit(s, "").s};`, "");
  }
  out.push("// ---- methods ----", "");
  for (const m of model.methods) {
    // TS forbids a required tuple element after an optional one: such a param becomes `T | undefined`.
    const lastRequired = m.params.map((p) => p.required).lastIndexOf(true);
    const elems = m.params.map((p, i) => {
      let label = p.name.replace(/[^A-Za-z0-9_$]/g, "_");
      if (!IDENT.test(label) || JS_RESERVED.has(label)) label = `_${label}`;
      const t = em.emit(p.schema, "  ");
      if (p.required) return `  ${label}: ${t.s}`;
      if (i < lastRequired) return `  ${label}: ${union([t, atom("undefined")]).s}`;
      return `  ${label}?: ${t.s}`;
    });
    out.push(`/** Positional params of \`${m.name}\`. */`);
    out.push(elems.length ? `export type ${m.pascal}Params = [\n${elems.join(",\n")},\n];` : `export type ${m.pascal}Params = [];`);
    out.push(`/** Result of \`${m.name}\`. */`);
    out.push(`export type ${m.pascal}Result = ${m.hasResult ? em.emit(m.result, "").s : "unknown"};`, "");
  }
  return out.join("\n").replace(/\n+$/, "\n");
}
