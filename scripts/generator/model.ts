/**
 * The generator's model of an OpenRPC document: components and methods checked for names that work as TypeScript
 * identifiers, with params and results as schemas (content descriptor `$ref`s followed). Methods sorted by name.
 */
import { deref } from "../../shared/contract/refs.js";
import { isObject, type JsonObject } from "../../shared/contract/json.js";
import { pascalCase } from "../../tools/contract/names.js";

/** Names exported by generated/index.ts (and its re-exports) besides the schema/method types. */
const RESERVED_NAMES = new Set([
  "RpcMethods",
  "MethodName",
  "methodNames",
  "methodParams",
  "contractDigest",
  "MethodParamSpec",
  "paramValidators",
  "resultValidators",
  "ValidateFunction",
  "ValidationIssue",
  "describeValidationErrors",
  "paramError",
  "resultError",
  "ErrorObject",
]);

export type Schema = boolean | JsonObject;

export interface ParamSpec {
  name: string;
  required: boolean;
  schema: Schema;
}

export interface MethodSpec {
  name: string;
  pascal: string;
  params: ParamSpec[];
  result: Schema;
  hasResult: boolean;
}

export interface Model {
  doc: JsonObject;
  components: Record<string, Schema>;
  componentNames: string[];
  methods: MethodSpec[];
}

export class GenerateError extends Error {
  override name = "GenerateError";
}

export function isSchema(v: unknown): v is Schema {
  return typeof v === "boolean" || isObject(v);
}

export const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Words that cannot be an identifier (tuple labels) … */
export const JS_RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "implements interface let package private protected public static yield"
  ).split(" "),
);
/** … and words that additionally cannot name a type alias. */
const TS_RESERVED = new Set([
  ...JS_RESERVED,
  ..."any boolean number string symbol unknown never object undefined bigint type".split(" "),
]);


export function buildModel(docInput: unknown): Model {
  if (!isObject(docInput)) throw new GenerateError("openrpc.json: top level must be an object");
  const doc = docInput;
  const comps = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const components: Record<string, Schema> = {};
  const componentNames = Object.keys(comps).sort();
  for (const key of componentNames) {
    const s = comps[key];
    if (!isSchema(s)) throw new GenerateError(`components.schemas.${key} is not a schema`);
    if (!IDENT.test(key) || TS_RESERVED.has(key)) {
      throw new GenerateError(`components.schemas key "${key}" is not usable as a TypeScript type name`);
    }
    if (RESERVED_NAMES.has(key)) {
      throw new GenerateError(`components.schemas key "${key}" collides with a name exported by generated/index.ts`);
    }
    components[key] = s;
  }

  if (!Array.isArray(doc.methods)) throw new GenerateError("openrpc.json: `methods` must be an array");
  const methods: MethodSpec[] = [];
  const seenNames = new Set<string>();
  const typeNames = new Map<string, string>(componentNames.map((k) => [k, `components.schemas.${k}`]));
  for (const rawMethod of doc.methods) {
    const m = deref<JsonObject>(doc, rawMethod);
    if (!isObject(m) || typeof m.name !== "string" || m.name.length === 0) {
      throw new GenerateError("openrpc.json: every method needs a string `name`");
    }
    const name = m.name;
    if (seenNames.has(name)) throw new GenerateError(`duplicate method name "${name}"`);
    seenNames.add(name);
    const pascal = pascalCase(name);
    if (!pascal || !IDENT.test(pascal)) throw new GenerateError(`cannot derive a type name from method "${name}"`);
    for (const suffix of ["Params", "Result"]) {
      const tn = pascal + suffix;
      const prev = typeNames.get(tn);
      if (prev) throw new GenerateError(`type name ${tn} (from method "${name}") collides with ${prev}`);
      if (RESERVED_NAMES.has(tn)) throw new GenerateError(`type name ${tn} collides with a generated export`);
      typeNames.set(tn, `method "${name}"`);
    }
    const rawParams = m.params === undefined ? [] : m.params;
    if (!Array.isArray(rawParams)) throw new GenerateError(`method "${name}": params must be an array`);
    const params: ParamSpec[] = [];
    const seenParams = new Set<string>();
    for (const [i, rp] of rawParams.entries()) {
      const p = deref<JsonObject>(doc, rp);
      if (!isObject(p) || typeof p.name !== "string") {
        throw new GenerateError(`method "${name}": param ${i} needs a string name`);
      }
      if (seenParams.has(p.name)) throw new GenerateError(`method "${name}": duplicate param name "${p.name}"`);
      seenParams.add(p.name);
      if (!isSchema(p.schema)) throw new GenerateError(`method "${name}": param "${p.name}" has no schema`);
      params.push({ name: p.name, required: p.required === true, schema: p.schema });
    }
    const r = m.result === undefined ? undefined : deref<JsonObject>(doc, m.result);
    if (r !== undefined && (!isObject(r) || !isSchema(r.schema))) {
      throw new GenerateError(`method "${name}": result has no schema`);
    }
    methods.push({
      name,
      pascal,
      params,
      result: r === undefined ? true : (r.schema as Schema),
      hasResult: r !== undefined,
    });
  }
  methods.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { doc, components, componentNames, methods };
}
