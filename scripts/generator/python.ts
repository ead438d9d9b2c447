/**
 * JSON Schema → Python (≥ 3.10, standard library typing): the type emission of the Python SDK's types.py and of its
 * methods' signatures. A components/schemas entry becomes a type of that name: an object with properties a
 * `TypedDict` class (its fields declared through the functional form, so that keys like `from` work, required and
 * optional ones in two bases since `NotRequired` is 3.11), anything else a `TypeAlias`. An object written in place
 * gets a TypedDict of its own, named after where it sits (`NodeInfoEnvironment`). Definitions come in dependency
 * order; a reference to one not yet defined (only in a cycle: a call frame's calls) is a quoted forward reference.
 */
import { isObject, type JsonObject } from "../../shared/contract/json.js";
import { pascalCase } from "../../tools/contract/names.js";
import { RECURSIVE_REF, componentName, resolvePointer } from "../../shared/contract/refs.js";
import { GenerateError, isSchema, type Model, type Schema } from "./model.js";
import { schemaComment, schemaTypes } from "./typescript.js";

/** A Python type expression, and whether it names something the module defines further down. */
interface PyType {
  s: string;
  forward: boolean;
}

/** Where an in-place object sits, which names its TypedDict: owner + path (`NodeInfo` + `Environment`). */
interface Place {
  owner: string;
  path: string[];
}

const PY_KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from global " +
    "if import in is lambda nonlocal not or pass raise return try while with yield match case type"
  ).split(" "),
);
/** Names types.py imports; a schema may not take them. */
const TYPES_MODULE_NAMES = new Set(["Literal", "NoReturn", "TypeAlias", "TypedDict", "annotations"]);

/** `eth_getBlockByNumber` → `eth_get_block_by_number`, `rpc.discover` → `rpc_discover`, `blockHash` → `block_hash`. */
export function snakeCase(name: string): string {
  return name
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();
}

/** A Python identifier for `name`: keywords get a trailing underscore (`from` → `from_`). */
export function pyIdentifier(name: string): string {
  return PY_KEYWORDS.has(name) ? `${name}_` : name;
}

/** A Python string literal (JSON's escapes are Python's). */
export const pyString = (s: string): string => JSON.stringify(s);

const WIDTH = 110;

/** `text` in lines of at most `width` columns (a word longer than that alone on its line), words kept whole. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w.length > 0)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines;
}

/**
 * A docstring at `indent`: the first line, then the rest after a blank line; long lines wrapped, an indented line's
 * continuation indented 4 more (Google style's `Args:` entries).
 */
export function pyDocstring(text: string, indent: string): string {
  const body = text.replace(/\\/g, "\\\\").replace(/"""/g, '\\"\\"\\"').replace(/"$/, '\\"').replace(/\r\n?/g, "\n").trim();
  const lines = body.split("\n").flatMap((l) => {
    if (!l.trim()) return [""];
    const lead = /^\s*/.exec(l)![0];
    const [first, ...rest] = wrapLines(l.trim(), WIDTH - indent.length - lead.length, lead.length > 0 ? 4 : 0);
    return [`${lead}${first}`, ...rest.map((r) => `${lead}${r}`)];
  });
  if (lines.length === 1 && indent.length + lines[0]!.length + 6 <= WIDTH) return `${indent}"""${lines[0]}"""`;
  return [`${indent}"""${lines[0]}`, ...lines.slice(1).map((l) => (l ? `${indent}${l}` : "")), `${indent}"""`].join("\n");
}

/** `text` wrapped to `width`, lines after the first indented by `hang` spaces. */
function wrapLines(text: string, width: number, hang: number): string[] {
  const [first, ...rest] = wrap(text, width);
  return [first!, ...wrap(rest.join(" "), width - hang).filter((l) => l).map((l) => `${" ".repeat(hang)}${l}`)];
}

/** `# ` comment lines at `indent`, wrapped. */
export function pyComment(text: string, indent: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .flatMap((paragraph) => wrap(paragraph, WIDTH - indent.length - 2).map((l) => (l ? `${indent}# ${l}` : `${indent}#`)));
}

/** The members of a union type expression (`A | list[B | C]` → `A`, `list[B | C]`): its `|`s outside brackets and strings. */
export function unionMembers(type: string): string[] {
  const members: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    const c = type[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === "|" && depth === 0) {
      members.push(type.slice(start, i).trim());
      start = i + 1;
    }
  }
  members.push(type.slice(start).trim());
  return members;
}

function union(members: PyType[]): PyType {
  const seen = new Set<string>();
  const flat: PyType[] = [];
  for (const m of members) {
    for (const part of unionMembers(m.s)) {
      if (part === "object") return { s: "object", forward: members.some((x) => x.forward) };
      if (part === "NoReturn" || seen.has(part)) continue;
      seen.add(part);
      flat.push({ s: part, forward: m.forward });
    }
  }
  if (flat.length === 0) return { s: "NoReturn", forward: false };
  // None last, as people write it.
  const ordered = [...flat.filter((m) => m.s !== "None"), ...flat.filter((m) => m.s === "None")];
  return { s: ordered.map((m) => m.s).join(" | "), forward: ordered.some((m) => m.forward) };
}

function literal(values: unknown[]): PyType {
  const literals: string[] = [];
  const rest: PyType[] = [];
  for (const v of values) {
    if (v === null) rest.push({ s: "None", forward: false });
    else if (typeof v === "string") literals.push(pyString(v));
    else if (typeof v === "boolean") literals.push(v ? "True" : "False");
    else if (typeof v === "number" && Number.isInteger(v)) literals.push(String(v));
    else rest.push({ s: typeof v === "number" ? "float" : "object", forward: false });
  }
  return union([...(literals.length ? [{ s: `Literal[${literals.join(", ")}]`, forward: false }] : []), ...rest]);
}

export class PythonTypes {
  /** types.py's definitions so far, in order. */
  private readonly blocks: string[] = [];
  private readonly defined = new Set<string>();
  private readonly pending = new Set<string>();
  private readonly taken: Set<string>;
  /** Prefixed to the names of defined types in the expression being emitted: "" in types.py, `t.` in signatures. */
  private qualifier = "";

  constructor(private readonly model: Model) {
    for (const key of model.componentNames) {
      if (PY_KEYWORDS.has(key) || TYPES_MODULE_NAMES.has(key)) {
        throw new GenerateError(`components.schemas key "${key}" is not usable as a Python type name`);
      }
    }
    this.taken = new Set(model.componentNames);
  }

  /** Defines every component, dependencies first. */
  defineComponents(): void {
    for (const key of this.model.componentNames) this.defineComponent(key);
  }

  /** The definitions, in the order a module must hold them. */
  definitions(): readonly string[] {
    return this.blocks;
  }

  /**
   * The type of a schema in a signature, component names prefixed by `qualifier` (`t.Block`). An object written in
   * place becomes a TypedDict named after `place`, defined in types.py.
   */
  signatureType(schema: Schema, place: Place, qualifier: string): string {
    this.qualifier = qualifier;
    try {
      return this.expr(schema, place).s;
    } finally {
      this.qualifier = "";
    }
  }

  private defineComponent(key: string): void {
    if (this.defined.has(key) || this.pending.has(key)) return;
    this.pending.add(key);
    const schema = this.model.components[key]!;
    for (const dep of [...new Set(this.componentRefs(schema))].sort()) this.defineComponent(dep);
    const doc = schemaComment(schema, key);
    if (isObject(schema) && this.isTypedDict(schema)) {
      this.defineTypedDict(key, schema, { owner: key, path: [] }, doc);
    } else {
      const t = this.expr(schema, { owner: key, path: [] });
      this.blocks.push([`${key}: TypeAlias = ${t.forward ? pyString(t.s) : t.s}`, ...(doc ? [pyDocstring(doc, "")] : [])].join("\n"));
    }
    this.pending.delete(key);
    this.defined.add(key);
  }

  /** Component names `schema` refers to (`$ref`, `x-recursive-ref`), not looking into the components themselves. */
  private componentRefs(schema: unknown, out: string[] = []): string[] {
    if (Array.isArray(schema)) for (const s of schema) this.componentRefs(s, out);
    else if (isObject(schema)) {
      for (const ref of [schema.$ref, schema[RECURSIVE_REF]]) {
        const name = typeof ref === "string" ? componentName(ref) : undefined;
        if (name !== undefined && Object.hasOwn(this.model.components, name)) out.push(name);
      }
      for (const [k, v] of Object.entries(schema)) if (k !== "enum" && k !== "const" && k !== "examples" && k !== "default") this.componentRefs(v, out);
    }
    return out;
  }

  private isTypedDict(s: JsonObject): boolean {
    if (typeof s.$ref === "string" || typeof s[RECURSIVE_REF] === "string") return false;
    if ("oneOf" in s || "anyOf" in s || "allOf" in s || "enum" in s || "const" in s) return false;
    const objectType = s.type === undefined || s.type === "object";
    return objectType && isObject(s.properties) && Object.keys(s.properties).length > 0;
  }

  private ref(name: string): PyType {
    return { s: this.qualifier + name, forward: !this.defined.has(name) };
  }

  private componentKey(ref: string): string | undefined {
    const key = componentName(ref);
    if (key !== undefined && !Object.hasOwn(this.model.components, key)) throw new GenerateError(`$ref "${ref}" names no components.schemas entry`);
    return key;
  }

  private expr(schema: Schema, place: Place, depth = 0): PyType {
    if (depth > 64) throw new GenerateError("schema nesting too deep (unsupported recursive inline $ref?)");
    if (schema === true) return { s: "object", forward: false };
    if (schema === false) return { s: "NoReturn", forward: false };
    const s = schema;
    if (typeof s.$ref === "string") {
      const key = this.componentKey(s.$ref);
      if (key !== undefined) return this.ref(key);
      const target = resolvePointer(this.model.doc, s.$ref);
      if (!isSchema(target)) throw new GenerateError(`$ref "${s.$ref}" does not point at a schema`);
      return this.expr(target, place, depth + 1);
    }
    const recursive = s[RECURSIVE_REF];
    if (typeof recursive === "string") {
      const key = this.componentKey(recursive);
      if (key === undefined) throw new GenerateError(`${RECURSIVE_REF} "${recursive}" names no components.schemas entry`);
      return this.ref(key);
    }
    const parts: PyType[] = [];
    const base = this.base(s, place, depth);
    if (base) parts.push(base);
    for (const k of ["oneOf", "anyOf"] as const) {
      const alts = s[k];
      if (Array.isArray(alts)) parts.push(union(alts.map((a) => this.expr(a as Schema, place, depth + 1))));
    }
    if (Array.isArray(s.allOf)) {
      if (s.allOf.length !== 1) throw new GenerateError(`${place.owner}: allOf with ${s.allOf.length} members has no Python type (use one member, or oneOf)`);
      parts.push(this.expr(s.allOf[0] as Schema, place, depth + 1));
    }
    if (parts.length === 0) return { s: "object", forward: false };
    if (parts.length > 1) throw new GenerateError(`${place.owner}: a schema that is both a type and an alternative has no Python type`);
    return parts[0]!;
  }

  private base(s: JsonObject, place: Place, depth: number): PyType | undefined {
    if ("const" in s) return literal([s.const]);
    if (Array.isArray(s.enum)) return literal(s.enum);
    const types = schemaTypes(s);
    if (types === undefined) return undefined;
    return union(
      types.map((t): PyType => {
        switch (t) {
          case "string":
            return { s: "str", forward: false };
          case "integer":
            return { s: "int", forward: false };
          case "number":
            return { s: "float", forward: false };
          case "boolean":
            return { s: "bool", forward: false };
          case "null":
            return { s: "None", forward: false };
          case "array":
            return this.array(s, place, depth);
          case "object":
            return this.object(s, place, depth);
          default:
            throw new GenerateError(`unknown JSON Schema type "${t}"`);
        }
      }),
    );
  }

  private array(s: JsonObject, place: Place, depth: number): PyType {
    const at = { owner: place.owner, path: [...place.path, "Item"] };
    // A tuple schema arrives as a JSON array, a list: its members' union.
    const items = Array.isArray(s.items) ? union(s.items.map((i) => this.expr(i as Schema, at, depth + 1))) : isSchema(s.items) ? this.expr(s.items, at, depth + 1) : undefined;
    const el = items ?? { s: "object", forward: false };
    return { s: `list[${el.s}]`, forward: el.forward };
  }

  private object(s: JsonObject, place: Place, depth: number): PyType {
    if (this.isTypedDict({ ...s, type: "object" })) {
      const name = this.inlineName(place);
      this.defineTypedDict(name, s, place, schemaComment(s));
      return this.ref(name);
    }
    const values: PyType[] = [];
    if (isObject(s.patternProperties)) for (const v of Object.values(s.patternProperties)) values.push(this.expr(v as Schema, place, depth + 1));
    if (isObject(s.additionalProperties)) values.push(this.expr(s.additionalProperties, place, depth + 1));
    const v = values.length ? union(values) : { s: "object", forward: false };
    return { s: `dict[str, ${v.s}]`, forward: v.forward };
  }

  private inlineName(place: Place): string {
    const base = place.owner + place.path.join("");
    let name = base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}Object${i === 2 ? "" : i}`;
    this.taken.add(name);
    return name;
  }

  /** `name` as a TypedDict class, after the TypedDicts holding its required and its optional fields. */
  private defineTypedDict(name: string, s: JsonObject, place: Place, doc: string | undefined): void {
    const qualifier = this.qualifier;
    this.qualifier = "";
    try {
      this.writeTypedDict(name, s, place, doc);
    } finally {
      this.qualifier = qualifier;
    }
  }

  private writeTypedDict(name: string, s: JsonObject, place: Place, doc: string | undefined): void {
    const props = s.properties as JsonObject;
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    const groups: Record<"required" | "optional", string[]> = { required: [], optional: [] };
    for (const [key, ps] of Object.entries(props)) {
      if (!isSchema(ps)) throw new GenerateError(`${name}.${key} is not a schema`);
      const t = this.expr(ps, { owner: place.owner, path: [...place.path, pascalCase(key)] });
      const comment = isObject(ps) && typeof ps.$ref !== "string" ? schemaComment(ps) : undefined;
      groups[required.has(key) ? "required" : "optional"].push(
        [...(comment ? pyComment(comment, "        ") : []), `        ${pyString(key)}: ${t.forward ? pyString(t.s) : t.s},`].join("\n"),
      );
    }
    const bases: string[] = [];
    for (const [group, suffix, total] of [
      ["required", "Required", ""],
      ["optional", "Optional", "\n    total=False,"],
    ] as const) {
      if (groups[group].length === 0) continue;
      const base = `_${name}${suffix}`;
      bases.push(base);
      this.blocks.push(`${base} = TypedDict(\n    ${pyString(base)},\n    {\n${groups[group].join("\n")}\n    },${total}\n)`);
    }
    this.blocks.push(`class ${name}(${bases.join(", ")}):\n${doc ? pyDocstring(doc, "    ") : "    pass"}`);
    this.defined.add(name);
  }
}
