// The contract the page explores: the node's answer to rpc.discover, and its methods as the page shows them.

import { isObject, type JsonObject } from "../shared/contract/json.js";
import { deref as derefIn } from "../shared/contract/refs.js";

export interface ContentDescriptor {
  name: string;
  description?: string;
  summary?: string;
  required?: boolean;
  schema?: unknown;
}

export interface ExamplePairing {
  name?: string;
  description?: string;
  params?: { name: string; value: unknown }[];
  result?: { name?: string; value: unknown };
}

export interface Method {
  name: string;
  summary?: string;
  description?: string;
  /** The contract version that introduced it ("x-since"). */
  since?: string;
  deprecated: boolean;
  tags?: { name: string }[];
  params: ContentDescriptor[];
  result?: ContentDescriptor;
  errors: { code: number; message: string; data?: unknown }[];
  examples: ExamplePairing[];
}

/** The served document (rpc.discover's result), once loaded. */
export let doc: JsonObject = {};
/** Its methods by name, in the document's order. */
export const methods = new Map<string, Method>();

/** Follows reference objects (content descriptors, examples, errors may be refs) in the served contract. */
export function deref<T>(v: unknown): T {
  return derefIn<T>(doc, v);
}

function toMethod(raw: unknown): Method | undefined {
  const m = deref<JsonObject>(raw);
  if (!isObject(m) || typeof m.name !== "string") return undefined;
  const list = <T>(v: unknown): T[] => (Array.isArray(v) ? v.map((x) => deref<T>(x)) : []);
  return {
    name: m.name,
    summary: typeof m.summary === "string" ? m.summary : undefined,
    description: typeof m.description === "string" ? m.description : undefined,
    since: typeof m["x-since"] === "string" ? m["x-since"] : undefined,
    deprecated: m.deprecated === true,
    tags: list<{ name: string }>(m.tags),
    params: list<ContentDescriptor>(m.params),
    result: m.result === undefined ? undefined : deref<ContentDescriptor>(m.result),
    errors: list<{ code: number; message: string; data?: unknown }>(m.errors),
    examples: list<ExamplePairing>(m.examples),
  };
}

/** Takes `served` as the contract and reads its methods. */
export function useContract(served: JsonObject): void {
  doc = served;
  for (const raw of Array.isArray(doc.methods) ? doc.methods : []) {
    const m = toMethod(raw);
    if (m) methods.set(m.name, m);
  }
}

/** The first tag a method carries, under which the list groups it. */
export function methodTag(m: Method): string {
  const t = (m.tags ?? []).map((x) => deref<{ name?: string }>(x)).find((x) => typeof x?.name === "string");
  return t?.name ?? "other";
}
