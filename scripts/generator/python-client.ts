/**
 * Python SDK generator: openrpc.json → clients/python/evm_node_client/{types,methods}.py
 *
 * Run by `npm run generate` (scripts/generate.ts) beside the TypeScript SDK, from the same model. The package's
 * runtime (client, transport, errors, quantities) is ordinary source in clients/python/evm_node_client/; generated:
 *
 *   types.py    every components/schemas entry as a Python type (python.ts), and the TypedDicts of objects in place
 *   methods.py  `ContractMethods`: one method per contract method (`eth_get_block_by_number(block, full)`), typed,
 *               with the contract's summary, description, params and declared errors as its docstring; `METHODS`
 *               (each method's Python name, params and declared errors), the contract's version and digest
 *
 * Programmatic use: `renderPythonClientFiles(doc)` (pure) and `generatePythonClient(docPath?, outDir?)` (writes).
 */
import path from "node:path";
import { readDocument } from "../../shared/contract/document.js";
import { isObject, type JsonObject } from "../../shared/contract/json.js";
import { deref } from "../../shared/contract/refs.js";
import { projectRoot } from "../../shared/contract/root.js";
import { declaredErrors, rawMethod, type DeclaredError } from "./method-info.js";
import { contractDigest } from "./methods.js";
import { GenerateError, buildModel, type MethodSpec, type Model } from "./model.js";
import { PY_HEADER, writeGeneratedFiles } from "./output.js";
import { PythonTypes, pyDocstring, pyIdentifier, pyString, snakeCase, unionMembers } from "./python.js";

export const PYTHON_CLIENT_DIR = path.join("clients", "python");
export const PYTHON_GENERATED_DIR = path.join(PYTHON_CLIENT_DIR, "evm_node_client");
export const PYTHON_GENERATED_FILES = ["methods.py", "types.py"] as const;

/** Members of the hand-written `Client` (client.py) besides the contract's methods. */
const CLIENT_MEMBERS = new Set(["request", "batch", "close", "transport"]);

/** A Python literal for a JSON value (declared errors' data). */
function pyValue(v: unknown): string {
  if (v === null || v === undefined) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number" || typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(pyValue).join(", ")}]`;
  return `{${Object.entries(v as JsonObject)
    .map(([k, x]) => `${pyString(k)}: ${pyValue(x)}`)
    .join(", ")}}`;
}

const pyTuple = (items: string[]): string => (items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`);

const pyError = (e: DeclaredError): string => `DeclaredError(${e.code}, ${pyString(e.message)}${"data" in e ? `, ${pyValue(e.data)}` : ""})`;

interface PyParam {
  wire: string;
  name: string;
  annotation: string;
  description: string;
}

interface PyMethod {
  spec: MethodSpec;
  name: string;
  params: PyParam[];
  /** Params up to the last required one: the rest may be left out (None). */
  required: number;
  result: string;
  errors: DeclaredError[];
  raw: JsonObject;
}

function pyMethods(model: Model, types: PythonTypes): PyMethod[] {
  const seen = new Map<string, string>();
  return model.methods.map((spec) => {
    const name = pyIdentifier(snakeCase(spec.name));
    if (CLIENT_MEMBERS.has(name) || name.startsWith("_")) throw new GenerateError(`method "${spec.name}": Python name ${name} collides with a Client member`);
    const prev = seen.get(name);
    if (prev !== undefined) throw new GenerateError(`Python method name ${name} collides (${prev} / ${spec.name})`);
    seen.set(name, spec.name);
    const raw = rawMethod(model, spec.name);
    const descriptors = (Array.isArray(raw.params) ? raw.params : []).map((p) => deref<JsonObject>(model.doc, p));
    const required = spec.params.map((p) => p.required).lastIndexOf(true) + 1;
    const names = new Set<string>(["self"]);
    const params = spec.params.map((p, i): PyParam => {
      const pname = pyIdentifier(snakeCase(p.name));
      if (names.has(pname)) throw new GenerateError(`method "${spec.name}": param "${p.name}" has the Python name ${pname} twice`);
      names.add(pname);
      const t = types.signatureType(p.schema, { owner: spec.pascal, path: ["Param", p.name[0]!.toUpperCase() + p.name.slice(1)] }, "t.");
      const nullable = t === "object" || unionMembers(t).includes("None") ? t : `${t} | None`;
      const d = descriptors[i];
      return {
        wire: p.name,
        name: pname,
        annotation: i < required ? t : `${nullable} = None`,
        description: isObject(d) && typeof d.description === "string" ? d.description.trim() : "",
      };
    });
    const result = spec.hasResult ? types.signatureType(spec.result, { owner: spec.pascal, path: ["Result"] }, "t.") : "None";
    return { spec, name, params, required, result, errors: declaredErrors(model, raw), raw };
  });
}

function methodDocstring(model: Model, m: PyMethod): string {
  const summary = typeof m.raw.summary === "string" ? m.raw.summary.trim() : "";
  const description = typeof m.raw.description === "string" ? m.raw.description.trim() : "";
  const parts = [summary ? `\`${m.spec.name}\`: ${summary}` : `\`${m.spec.name}\``];
  if (description && description !== summary) parts.push(description);
  if (m.params.length > 0) {
    parts.push(["Args:", ...m.params.map((p, i) => `    ${p.name}: ${i >= m.required ? "(optional; None leaves it out) " : ""}${p.description.replace(/\s*\n\s*/g, " ")}`.trimEnd())].join("\n"));
  }
  const result = m.raw.result === undefined ? undefined : deref<JsonObject>(model.doc, m.raw.result);
  if (isObject(result) && typeof result.description === "string" && result.description.trim()) parts.push(`Returns:\n    ${result.description.trim().replace(/\s*\n\s*/g, " ")}`);
  const codes = [...new Set(m.errors.map((e) => e.code))];
  if (codes.length > 0) parts.push(`Raises:\n    JsonRpcError: the node's answer; the contract declares ${codes.join(", ")}.\n    TransportError: no JSON-RPC answer.`);
  if (typeof m.raw["x-since"] === "string") parts.push(`Since contract version ${m.raw["x-since"]}.`);
  if (m.raw.deprecated === true) parts.push("Deprecated: see the description for what replaces it.");
  return parts.join("\n\n");
}

function renderMethodsModule(model: Model, methods: PyMethod[]): string {
  const info = isObject(model.doc.info) ? model.doc.info : {};
  const out: string[] = [
    PY_HEADER,
    '"""Every method of the contract as a Python method (`ContractMethods`, which `Client` builds on), and what each declares."""',
    "",
    "from __future__ import annotations",
    "",
    "import abc",
    "from typing import Any, Literal, NamedTuple, NoReturn, cast",
    "",
    "from . import types as t",
    "",
    `CONTRACT_VERSION = ${pyString(typeof info.version === "string" ? info.version : "")}`,
    '"""`info.version` of the contract this client was generated from."""',
    `CONTRACT_DIGEST = ${pyString(contractDigest(model.doc))}`,
    '"""Digest of the contract this client was generated from (as the node\'s generated/methods.ts `contractDigest`)."""',
    "",
    "",
    "class DeclaredError(NamedTuple):",
    '    """An error a method lists in the contract (a node may still answer -32601, -32603 and the like)."""',
    "",
    "    code: int",
    "    message: str",
    "    data: object = None",
    "",
    "",
    "class MethodInfo(NamedTuple):",
    '    """A method of the contract: wire name, Python name, params in order, how many must be given, declared errors."""',
    "",
    "    name: str",
    "    python_name: str",
    "    params: tuple[str, ...]",
    "    required: int",
    "    errors: tuple[DeclaredError, ...]",
    "",
    "",
    "METHODS: dict[str, MethodInfo] = {",
  ];
  for (const m of methods) {
    out.push(`    ${pyString(m.spec.name)}: MethodInfo(`);
    out.push(`        ${pyString(m.spec.name)},`, `        ${pyString(m.name)},`);
    out.push(`        ${pyTuple(m.params.map((p) => pyString(p.wire)))},`, `        ${m.required},`);
    out.push(m.errors.length ? ["        (", ...m.errors.map((e) => `            ${pyError(e)},`), "        ),"].join("\n") : "        (),");
    out.push("    ),");
  }
  out.push("}", '"""Every method of the contract by wire name, sorted."""', "", "METHOD_NAMES: tuple[str, ...] = tuple(METHODS)", "", "");
  out.push("class ContractMethods(abc.ABC):");
  out.push('    """Every method of the contract as `<snake_case wire name>(params…)`; `Client` (client.py) sends them."""', "");
  out.push("    @abc.abstractmethod");
  out.push("    def _call(self, method: str, params: list[object], required: int) -> Any:");
  out.push('        """Sends `method` with `params` (those after the first `required` left out when None from the end on)."""');
  for (const m of methods) {
    const signature = ["self", ...m.params.map((p) => `${p.name}: ${p.annotation}`)];
    const line = `    def ${m.name}(${signature.join(", ")}) -> ${m.result}:`;
    out.push("");
    out.push(line.length <= 110 ? line : [`    def ${m.name}(`, ...signature.map((s) => `        ${s},`), `    ) -> ${m.result}:`].join("\n"));
    out.push(pyDocstring(methodDocstring(model, m), "        "));
    const call = `self._call(${pyString(m.spec.name)}, [${m.params.map((p) => p.name).join(", ")}], ${m.required})`;
    out.push(`        return cast(${pyString(m.result)}, ${call})`);
  }
  return out.join("\n") + "\n";
}

function renderTypesModule(types: PythonTypes): string {
  return [
    PY_HEADER,
    '"""The contract\'s schemas (components/schemas) as Python types: quantities and data are 0x-hex strings (`quantity.py` converts)."""',
    "",
    "from __future__ import annotations",
    "",
    "from typing import Literal, NoReturn, TypeAlias, TypedDict",
    "",
    ...types.definitions().flatMap((d) => ["", d, ""]),
  ]
    .join("\n")
    .replace(/\n{3,}/g, "\n\n\n")
    .replace(/\n+$/, "\n");
}

/** Pure: the generated modules of the Python SDK, file name → contents. */
export function renderPythonClientFiles(doc: unknown): Map<string, string> {
  const model = buildModel(doc);
  const types = new PythonTypes(model);
  types.defineComponents();
  const methods = pyMethods(model, types);
  return new Map([
    ["methods.py", renderMethodsModule(model, methods)],
    ["types.py", renderTypesModule(types)],
  ]);
}

/** Writes the Python SDK's generated modules (unchanged ones untouched); returns their paths. */
export function generatePythonClient(docPath?: string, outDir?: string): string[] {
  const root = docPath && outDir ? undefined : projectRoot();
  const doc = path.resolve(docPath ?? path.join(root!, "openrpc.json"));
  const out = path.resolve(outDir ?? path.join(root!, PYTHON_GENERATED_DIR));
  return writeGeneratedFiles(out, renderPythonClientFiles(readDocument(doc)));
}
