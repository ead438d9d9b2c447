// Local `$ref` resolution ("#/components/schemas/Block") in an OpenRPC document: the one implementation used by the
// generator, the contract tools, the tests and the playground page (served to the browser as is: no Node APIs).

import { isObject } from './json.js';

const COMPONENT_SCHEMA_PREFIX = '#/components/schemas/';

/** A `$ref` that is not local, points nowhere, or loops. */
export class RefError extends Error {
  override name = 'RefError';
}

/** Chains of `$ref` longer than this are taken for cycles. */
const MAX_REF_CHAIN = 32;

/** `#/components/schemas/A~1B` → ["components", "schemas", "A/B"] (RFC 6901, URI fragment form). */
export function pointerTokens(ref: string): string[] {
  if (!ref.startsWith('#')) throw new RefError(`unsupported non-local $ref "${ref}"`);
  return ref
    .slice(1)
    .split('/')
    .slice(1)
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value a local JSON pointer (`#/a/b`) names in `doc`. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  let cur: unknown = doc;
  for (const p of pointerTokens(ref)) {
    if (Array.isArray(cur) && /^\d+$/.test(p)) cur = cur[Number(p)];
    else if (isObject(cur) && Object.hasOwn(cur, p)) cur = cur[p];
    else throw new RefError(`unresolvable $ref "${ref}"`);
  }
  return cur;
}

/** The components/schemas key a `$ref` names directly (`#/components/schemas/Block` → `Block`), or undefined. */
export function componentName(ref: string): string | undefined {
  if (!ref.startsWith(COMPONENT_SCHEMA_PREFIX)) return undefined;
  const key = ref.slice(COMPONENT_SCHEMA_PREFIX.length);
  return key.includes('/') ? undefined : decodeURIComponent(key).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The `$ref` of a reference object (`{ "$ref": "#/..." }`), or undefined. */
export function refOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.$ref === 'string' ? value.$ref : undefined;
}

/**
 * The extension keyword by which a schema stands for a component where a `$ref` would close a cycle (a call frame's
 * `calls` hold call frames). The reference OpenRPC tools cannot dereference a `$ref` cycle (schema-utils-js's
 * `parseOpenRPCDocument` grows until the heap runs out), so the contract has none: they read the schema's own keywords
 * (`{ "type": "object" }`, a bound), while evm-node's generator, validators, contract tools and playground follow the
 * keyword like a `$ref`, to any depth.
 */
export const RECURSIVE_REF = 'x-recursive-ref';

/** What a schema refers to for evm-node's tools: its `$ref`, else its `x-recursive-ref`; undefined for neither. */
export function schemaRefOf(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.$ref === 'string') return value.$ref;
  const recursive = value[RECURSIVE_REF];
  return typeof recursive === 'string' ? recursive : undefined;
}

/** A deep copy of `value` in which every schema with an `x-recursive-ref` is that reference as a `$ref`: for validators. */
export function followRecursiveRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(followRecursiveRefs);
  if (!isObject(value)) return value;
  const recursive = value[RECURSIVE_REF];
  if (typeof recursive === 'string') return { $ref: recursive };
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, followRecursiveRefs(v)]));
}

/** Follows reference objects (content descriptors, examples, errors, schemas) to what they name. */
export function deref<T = unknown>(doc: unknown, value: unknown): T {
  let cur = value;
  for (let depth = 0; ; depth++) {
    const ref = refOf(cur);
    if (ref === undefined) return cur as T;
    if (depth >= MAX_REF_CHAIN) throw new RefError(`$ref cycle at "${ref}"`);
    cur = resolvePointer(doc, ref);
  }
}
