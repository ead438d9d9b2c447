/**
 * Client SDK generator: openrpc.json → clients/typescript/src/generated/{types,client}.ts
 *
 * Run by `npm run generate` (scripts/generate.ts) after generated/. The package's runtime — transports and the
 * error classes — is ordinary source in clients/typescript/src/; only the contract-derived part is generated here:
 *
 *   types.ts   the type emission of generated/types.ts, with 0x-prefixed strings typed `` `0x${string}` ``
 *   client.ts  one typed function per method (`ethGetBlockByNumber(transport, ...params)`), `ContractMethods`
 *              (`<wire name>(...params)` members, which the hand-written `Client` builds on), each method's declared errors
 *   viem.ts    the contract as a viem RPC schema, and one action per method viem has no action for (viem-methods.ts)
 *
 * Programmatic use: `renderClientFiles(doc)` (pure) and `generateClient(docPath?, outDir?)` (writes).
 */
import path from "node:path";
import { readDocument } from "../../shared/contract/document.js";
import { isObject, type JsonObject } from "../../shared/contract/json.js";
import { deref } from "../../shared/contract/refs.js";
import { projectRoot } from "../../shared/contract/root.js";
import { declaredErrors, rawMethod, type DeclaredError } from "./method-info.js";
import { contractDigest } from "./methods.js";
import { GenerateError, IDENT, JS_RESERVED, buildModel, type MethodSpec, type Model } from "./model.js";
import { HEADER, writeGeneratedFiles } from "./output.js";
import { docComment, renderTypes } from "./typescript.js";
import { VIEM_ACTION_METHODS } from "./viem-methods.js";

export const CLIENT_DIR = path.join("clients", "typescript");
export const CLIENT_GENERATED_DIR = path.join(CLIENT_DIR, "src", "generated");
export const CLIENT_GENERATED_FILES = ["client.ts", "types.ts", "viem.ts"] as const;

/** Names the package exports besides the schema and method types; a contract name may not shadow them. */
export const CLIENT_RESERVED: ReadonlySet<string> = new Set([
  "Client",
  "createClient",
  "ContractMethods",
  "contractMethods",
  "BlockWithTransactions",
  "BatchCall",
  "BatchOutcome",
  "BatchResults",
  "SubscriptionEvents",
  "SubscriptionEvent",
  "SubscribeOptions",
  "Unsubscribe",
  "SubscriptionHandlers",
  "LogSubscriptionFilter",
  "RawCall",
  "RawOutcome",
  "ViemClientLike",
  "TransportSubscription",
  "SubscribingTransport",
  "ReconnectOptions",
  "EvmNodeRpcSchema",
  "methodsViemLacks",
  "ActionsViemLacks",
  "actionsViemLacks",
  "EvmNodeActions",
  "evmNodeActions",
  "viemTransport",
  "RpcMethods",
  "MethodName",
  "MethodParams",
  "MethodResult",
  "DeclaredErrorCode",
  "DeclaredError",
  "declaredErrors",
  "methodNames",
  "contractDigest",
  "contractVersion",
  "Transport",
  "HttpTransportOptions",
  "httpTransport",
  "WebSocketTransport",
  "WebSocketTransportOptions",
  "WebSocketConstructor",
  "webSocketTransport",
  "NotificationListener",
  "JsonRpcError",
  "TransportError",
  "ErrorCodes",
  "isJsonRpcError",
  "encodeParams",
]);

/** Members of the hand-written `Client` besides the methods (which are named by wire name). */
const CLIENT_MEMBERS = new Set(["transport", "request", "batch", "subscribe"]);
/** Members of the viem extension besides the actions (which are named like the SDK's functions). */
const VIEM_EXTENSION_MEMBERS = new Set(["subscribe", "evmNode"]);


/** `eth_getBlockByNumber` → `ethGetBlockByNumber`, `rpc.discover` → `rpcDiscover`. */
export function functionName(pascal: string): string {
  return pascal[0]!.toLowerCase() + pascal.slice(1);
}

/** An object key: bare when it is an identifier (`eth_call`), quoted otherwise (`"rpc.discover"`). */
function key(name: string): string {
  return IDENT.test(name) ? name : JSON.stringify(name);
}

function methodDoc(doc: JsonObject, method: JsonObject, name: string, declared: DeclaredError[]): string {
  const parts: string[] = [];
  const summary = typeof method.summary === "string" ? method.summary.trim() : "";
  const description = typeof method.description === "string" ? method.description.trim() : "";
  parts.push(summary ? `\`${name}\`: ${summary}` : `\`${name}\``);
  if (description && description !== summary) parts.push(description);
  const params = (Array.isArray(method.params) ? method.params : []) as JsonObject[];
  const lines = params
    .map((p) => deref<JsonObject>(doc, p))
    .filter((p) => isObject(p) && typeof p.name === "string")
    .map((p) => {
      const d = typeof p.description === "string" ? `: ${p.description.trim()}` : "";
      return `- \`${p.name}\`${p.required === true ? "" : " (optional)"}${d}`;
    });
  if (lines.length) parts.push(["Params:", ...lines].join("\n"));
  if (declared.length > 0) {
    const codes = [...new Set(declared.map((e) => e.code))].join(", ");
    parts.push(`@throws {JsonRpcError} declared codes: ${codes}`);
  }
  if (typeof method["x-since"] === "string") parts.push(`@since ${method["x-since"]}`);
  if (method.deprecated === true) parts.push("@deprecated see the description for what replaces it");
  return parts.join("\n\n");
}

interface MethodTexts {
  declared: Map<string, DeclaredError[]>;
  docs: Map<string, string>;
}

function methodTexts(model: Model): MethodTexts {
  const declared = new Map<string, DeclaredError[]>();
  const docs = new Map<string, string>();
  for (const m of model.methods) {
    const raw = rawMethod(model, m.name);
    const errors = declaredErrors(model, raw);
    declared.set(m.name, errors);
    docs.set(m.name, methodDoc(model.doc, raw, m.name, errors));
  }
  return { declared, docs };
}

function renderClient(model: Model, { declared: errorsByMethod, docs }: MethodTexts): string {
  const out: string[] = [HEADER, "/* eslint-disable */", ""];
  const names = new Map<string, string>();
  for (const key of model.componentNames) {
    if (CLIENT_RESERVED.has(key)) {
      throw new GenerateError(`components.schemas key "${key}" collides with a name exported by the client SDK`);
    }
  }
  for (const m of model.methods) {
    const fn = functionName(m.pascal);
    if (!IDENT.test(fn) || JS_RESERVED.has(fn) || CLIENT_RESERVED.has(fn)) {
      throw new GenerateError(`method "${m.name}": client function name ${fn} is not usable`);
    }
    if (CLIENT_MEMBERS.has(m.name)) {
      throw new GenerateError(`method "${m.name}" collides with the Client member of that name`);
    }
    const prev = names.get(fn);
    if (prev) throw new GenerateError(`client function name ${fn} collides (${prev} / ${m.name})`);
    names.set(fn, m.name);
  }

  const typeImports = model.methods.flatMap((m) => [`${m.pascal}Params`, `${m.pascal}Result`]);
  out.push('import type { Transport } from "../transport.js";');
  if (typeImports.length) out.push(`import type {\n${typeImports.map((t) => `  ${t},`).join("\n")}\n} from "./types.js";`);
  out.push("");

  const info = isObject(model.doc.info) ? model.doc.info : {};
  out.push("/** `info.version` of the contract this client was generated from. */");
  out.push(`export const contractVersion = ${JSON.stringify(typeof info.version === "string" ? info.version : "")};`);
  out.push("/** Digest of the contract this client was generated from (as generated/methods.ts's `contractDigest`). */");
  out.push(`export const contractDigest = ${JSON.stringify(contractDigest(model.doc))};`, "");

  out.push("/** Every method of the contract by wire name: positional params, result, and the error codes it declares. */");
  out.push("export interface RpcMethods {");
  for (const m of model.methods) {
    const codes = [...new Set(errorsByMethod.get(m.name)!.map((e) => e.code))].sort((a, b) => a - b);
    const errorType = codes.length ? codes.map((c) => JSON.stringify(c)).join(" | ") : "never";
    out.push(`  ${JSON.stringify(m.name)}: { params: ${m.pascal}Params; result: ${m.pascal}Result; errorCode: ${errorType} };`);
  }
  out.push("}", "");
  out.push("export type MethodName = keyof RpcMethods;");
  out.push('export type MethodParams<M extends MethodName> = RpcMethods[M]["params"];');
  out.push('export type MethodResult<M extends MethodName> = RpcMethods[M]["result"];');
  out.push("/** The JSON-RPC error codes `M` declares in the contract (a node may still answer -32601/-32603 and the like). */");
  out.push('export type DeclaredErrorCode<M extends MethodName> = RpcMethods[M]["errorCode"];', "");
  out.push("/** All method names, sorted. */");
  out.push("export const methodNames: readonly MethodName[] = [");
  for (const m of model.methods) out.push(`  ${JSON.stringify(m.name)},`);
  out.push("];", "");
  out.push("export interface DeclaredError {", "  readonly code: number;", "  readonly message: string;", "  readonly data?: unknown;", "}", "");
  out.push("/** The errors each method lists in the contract, in document order. */");
  out.push("export const declaredErrors: { readonly [M in MethodName]: readonly DeclaredError[] } = {");
  for (const m of model.methods) out.push(`  ${JSON.stringify(m.name)}: ${JSON.stringify(errorsByMethod.get(m.name))},`);
  out.push("};", "");

  out.push("// ---- one function per method ----", "");
  for (const m of model.methods) {
    out.push(docComment(docs.get(m.name), "").trimEnd());
    out.push(
      `export function ${functionName(m.pascal)}(transport: Transport, ...params: ${m.pascal}Params): Promise<${m.pascal}Result> {`,
    );
    out.push(`  return transport.request(${JSON.stringify(m.name)}, params) as Promise<${m.pascal}Result>;`);
    out.push("}", "");
  }

  out.push("// ---- every method as a member ----", "");
  out.push(
    ...boundMethods(model.methods, docs, (m) => key(m.name), {
      type: "ContractMethods",
      typeDoc: "Every method of the contract as `<wire name>(...params)`; `Client` (client.ts) builds on it.",
      builder: "contractMethods",
      builderDoc: "Every method of the contract bound to `transport`.",
    }),
  );
  return out.join("\n") + "\n";
}

/**
 * An interface with one member per method (named by `member`, typed by the method's params and result) and the
 * function that binds them all to a transport through the per-method functions of client.ts.
 */
function boundMethods(
  methods: MethodSpec[],
  docs: Map<string, string>,
  member: (m: MethodSpec) => string,
  names: { type: string; typeDoc: string; builder: string; builderDoc: string },
): string[] {
  const out = [`/** ${names.typeDoc} */`, `export interface ${names.type} {`];
  for (const m of methods) {
    out.push(docComment(docs.get(m.name), "  ").trimEnd());
    out.push(`  ${member(m)}(...params: ${m.pascal}Params): Promise<${m.pascal}Result>;`);
  }
  out.push("}", "", `/** ${names.builderDoc} */`, `export function ${names.builder}(transport: Transport): ${names.type} {`, "  return {");
  for (const m of methods) out.push(`    ${member(m)}: (...params) => ${functionName(m.pascal)}(transport, ...params),`);
  out.push("  };", "}");
  return out;
}

/**
 * viem.ts: the contract as a viem RPC schema (`EvmNodeRpcSchema`, for `createClient({ rpcSchema })`), and one action
 * per method viem has no action for (`ActionsViemLacks`), named like the SDK's functions. No viem import: the
 * schema is a plain tuple type that satisfies viem's `RpcSchema`, the actions run over the SDK's `Transport`.
 */
function renderViem(model: Model, docs: Map<string, string>): string {
  const viemHas = new Set(VIEM_ACTION_METHODS);
  const lacking = model.methods.filter((m) => !viemHas.has(m.name));
  const out: string[] = [HEADER, "/* eslint-disable */", ""];
  for (const m of lacking) {
    const fn = functionName(m.pascal);
    if (VIEM_EXTENSION_MEMBERS.has(fn)) {
      throw new GenerateError(`method "${m.name}": viem action name ${fn} collides with the extension's own member`);
    }
  }
  out.push('import type { Transport } from "../transport.js";');
  const fns = lacking.map((m) => functionName(m.pascal));
  if (fns.length) out.push(`import {\n${fns.map((f) => `  ${f},`).join("\n")}\n} from "./client.js";`);
  // Params types: for the actions, and for the schema entries of methods that take params.
  const typeImports = model.methods.flatMap((m) => [
    ...(m.params.length > 0 || !viemHas.has(m.name) ? [`${m.pascal}Params`] : []),
    `${m.pascal}Result`,
  ]);
  if (typeImports.length) out.push(`import type {\n${typeImports.map((t) => `  ${t},`).join("\n")}\n} from "./types.js";`);
  out.push("");
  out.push("/** The contract as a viem RPC schema: `createClient({ transport, rpcSchema: rpcSchema<EvmNodeRpcSchema>() })`. */");
  out.push("export type EvmNodeRpcSchema = readonly [");
  for (const m of model.methods) {
    // viem lets `params` be left out only where `Parameters` is undefined.
    const parameters = m.params.length === 0 ? "Parameters?: undefined" : `Parameters: ${m.pascal}Params`;
    out.push(`  { Method: ${JSON.stringify(m.name)}; ${parameters}; ReturnType: ${m.pascal}Result },`);
  }
  out.push("];", "");
  out.push("/** The contract's methods viem has no public or wallet action for, sorted. */");
  out.push("export const methodsViemLacks = [");
  for (const m of lacking) out.push(`  ${JSON.stringify(m.name)},`);
  out.push("] as const;", "");
  out.push(
    ...boundMethods(lacking, docs, (m) => functionName(m.pascal), {
      type: "ActionsViemLacks",
      typeDoc: "One action per method in `methodsViemLacks`, named like the SDK's function for it.",
      builder: "actionsViemLacks",
      builderDoc: "`ActionsViemLacks` over `transport`.",
    }),
  );
  return out.join("\n") + "\n";
}

/** Pure: the generated part of the client SDK, file name → contents. */
export function renderClientFiles(doc: unknown): Map<string, string> {
  const model = buildModel(doc);
  const texts = methodTexts(model);
  return new Map<string, string>([
    ["client.ts", renderClient(model, texts)],
    ["types.ts", renderTypes(model, { hexStrings: true })],
    ["viem.ts", renderViem(model, texts.docs)],
  ]);
}

/** Writes the client's generated files (unchanged ones untouched, stale generated ones removed); returns their paths. */
export function generateClient(docPath?: string, outDir?: string): string[] {
  const root = docPath && outDir ? undefined : projectRoot();
  const doc = path.resolve(docPath ?? path.join(root!, "openrpc.json"));
  const out = path.resolve(outDir ?? path.join(root!, CLIENT_GENERATED_DIR));
  return writeGeneratedFiles(out, renderClientFiles(readDocument(doc)));
}
