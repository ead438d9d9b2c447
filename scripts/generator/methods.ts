/** generated/methods.ts: the `RpcMethods` interface `src/` implements, method names and params, the contract digest. */
import { createHash } from "node:crypto";
import type { Model } from "./model.js";
import { HEADER } from "./output.js";

export function renderMethods(model: Model): string {
  const out: string[] = [HEADER, "/* eslint-disable */", ""];
  const typeImports = model.methods.flatMap((m) => [`${m.pascal}Params`, `${m.pascal}Result`]);
  if (typeImports.length) out.push(`import type {\n${typeImports.map((t) => `  ${t},`).join("\n")}\n} from "./types.js";`, "");
  out.push("/** Each method's positional params, keyed by its JSON-RPC name. */");
  out.push("export interface MethodParams {");
  for (const m of model.methods) out.push(`  ${JSON.stringify(m.name)}: ${m.pascal}Params;`);
  out.push("}", "");
  out.push("/** Each method's result, keyed by its JSON-RPC name. */");
  out.push("export interface MethodResults {");
  for (const m of model.methods) out.push(`  ${JSON.stringify(m.name)}: ${m.pascal}Result;`);
  out.push("}", "");
  out.push("export type MethodName = keyof MethodParams;", "");
  out.push("/**");
  out.push(" * Every method of the contract, keyed by its JSON-RPC name: positional params in, the result out.");
  out.push(" * `Ctx` is what the transport hands each call (the connection, for subscriptions).");
  out.push(" */");
  out.push("export type RpcMethods<Ctx = undefined> = {");
  out.push("  [M in MethodName]: (params: MethodParams[M], ctx: Ctx) => Promise<MethodResults[M]>;");
  out.push("};", "");
  out.push("export interface MethodParamSpec {", "  readonly name: string;", "  readonly required: boolean;", "}", "");
  out.push("/** All method names, sorted. */");
  out.push(`export const methodNames: readonly MethodName[] = [`);
  for (const m of model.methods) out.push(`  ${JSON.stringify(m.name)},`);
  out.push("];", "");
  out.push("/** Param names and required flags, in positional order. */");
  out.push("export const methodParams: Record<MethodName, readonly MethodParamSpec[]> = {");
  for (const m of model.methods) {
    const ps = m.params.map((p) => `{ name: ${JSON.stringify(p.name)}, required: ${p.required} }`);
    out.push(`  ${JSON.stringify(m.name)}: [${ps.join(", ")}],`);
  }
  out.push("};", "");
  out.push("/**");
  out.push(" * SHA-256 of the contract this code was generated from (of `JSON.stringify(JSON.parse(openrpc.json))`,");
  out.push(" * i.e. insensitive to whitespace). Any edit of openrpc.json changes it, so stale output is detectable.");
  out.push(" */");
  out.push(`export const contractDigest = ${JSON.stringify(contractDigest(model.doc))};`);
  return out.join("\n") + "\n";
}

/** Digest of the parsed document (whitespace-insensitive, key-order-sensitive). */
export function contractDigest(doc: unknown): string {
  return `sha256:${createHash("sha256").update(JSON.stringify(doc)).digest("hex")}`;
}
